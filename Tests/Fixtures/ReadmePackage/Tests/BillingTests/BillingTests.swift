import Contracts
import SectionRegistry
import SectionRegistryTesting
import Testing
@testable import Billing

struct TwoAccounts: AccountDirectory {
    var userNames: [String] { ["ada", "grace"] }
}

@Test func billingBillsEveryAccount() async throws {
    try await withTestHost([ModuleDescriptor(name: "Billing", level: .service, priority: 10) { Billing() }],
                           fakes: { try $0.register(AccountDirectory.self) { TwoAccounts() } }) { test in
        #expect(test.log.lines(of: "Billing").map(\.message) == ["Billing: billing ada, grace"])
    }
}
