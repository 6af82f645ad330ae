import FeatureContracts
import SectionRegistry

// The expansion of the attribute below, written out: this fixture builds in
// every configuration of scripts/build-matrix.sh and SharedLibraryTests
// without the Macros trait (and swift-syntax), and
// SectionRegistryMacrosTests checks that it is what the macro writes.
// @AppModule(after: ["Gateway"], startsConcurrently: true)
struct Ledger: AnsweringByTypeName, AppModule {}

@section("app_modules") @used
let _appModuleRecord_Ledger: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text, SectionRegistry._AppModuleRecordLayout.Text) = (
    // module Ledger, 384 bytes
    (0xA5A5_0001, 2, 384, 0x1, 3, 0, 0, { SectionRegistry.AppModuleHandle(Ledger()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x72656764654c, 0, 0, 0, 0, 0, 0, 0)),
    // after: Gateway
    (0xA5A5_0002, 1, 0, 0, 0, (0x79617765746147, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    // source file: Ledger/Ledger.swift
    (0xA5A5_0002, 2, 0, 0, 0, (0x4c2f72656764654c, 0x77732e7265676465, 0x746669, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
)
