import FeatureContracts
import SectionRegistry

// The expansion of the attribute below, written out: this fixture builds in
// every configuration of scripts/build-matrix.sh and SharedLibraryTests
// without the Macros trait (and swift-syntax), and
// SectionRegistryMacrosTests checks that it is what the macro writes.
// @AppModule(priority: 5, after: ["Inventory"])
struct Stock: AnsweringByTypeName, AppModule {}

@section("app_modules") @used
let _appModuleRecord_Stock: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text, SectionRegistry._AppModuleRecordLayout.Text) = (
    // module Stock, 384 bytes
    (0xA5A5_0001, 2, 384, 0, 3, 0, 5, { SectionRegistry.AppModuleHandle(Stock()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x6b636f7453, 0, 0, 0, 0, 0, 0, 0)),
    // after: Inventory
    (0xA5A5_0002, 1, 0, 0, 0, (0x726f746e65766e49, 0x79, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    // source file: Stock/Stock.swift
    (0xA5A5_0002, 2, 0, 0, 0, (0x74532f6b636f7453, 0x666977732e6b636f, 0x74, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
)
