import Routes
import SectionRegistry
import Vapor

@c(app_module_Greetings) func makeGreetings() -> AppModuleHandle { AppModuleHandle(Greetings()) }

/// A feature: `GET /hello/:name`.
struct Greetings: AppModule {
    func start(_ context: ModuleContext) async throws {
        try context.service(RouteTable.self).add { routes in
            routes.get("hello", ":name") { request in
                "Hello, \(request.parameters.get("name") ?? "stranger")!\n"
            }
        }
    }
}
