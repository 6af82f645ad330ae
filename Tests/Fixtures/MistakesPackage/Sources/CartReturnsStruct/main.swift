import SectionRegistry
import WrongTypes

@c(app_module_Cart) func makeCart() -> receipt { receipt(number: 7, total: 1999, items: 3, paid: 1, shipped: 0) }

await ModuleHost.main()
