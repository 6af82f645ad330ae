import SectionRegistry

@c(app_module_Checkout) public func makeCheckout() -> AppModuleHandle { AppModuleHandle(Checkout()) }

struct Checkout: AppModule {}
