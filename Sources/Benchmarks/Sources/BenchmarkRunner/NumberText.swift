import Foundation

/// Numbers as the table prints them: thousands separated by commas.
enum NumberText {
    /// `value` with `decimals` digits after the point, e.g. "1,383.6".
    static func grouped(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", value)
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : Substring(text)
        let integer = unsigned.prefix { $0 != "." }
        let fraction = unsigned.dropFirst(integer.count)
        var digits = ""
        for (index, digit) in integer.enumerated() {
            if index > 0 && (integer.count - index) % 3 == 0 { digits.append(",") }
            digits.append(digit)
        }
        return (negative ? "-" : "") + digits + fraction
    }

    /// A list of module counts as a label says it: "100 and 1,000".
    static func list(_ counts: [Int]) -> String {
        let texts = counts.map { grouped(Double($0), decimals: 0) }
        guard let last = texts.last, texts.count > 1 else { return texts.joined() }
        return texts.dropLast().joined(separator: ", ") + " and " + last
    }
}
