import SectionRegistry

/// Made by this library's own copy of SectionRegistry, not the program's.
@c(make_foreign_cart) public func makeForeignCart() -> AppModuleHandle { AppModuleHandle(ForeignCart()) }

struct ForeignCart: AppModule {}
