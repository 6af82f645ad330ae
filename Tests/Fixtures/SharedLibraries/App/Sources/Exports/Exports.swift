import FeatureContracts
import SectionRegistry

// The expansion of the attribute below, written out: this fixture builds in
// every configuration of scripts/build-matrix.sh and SharedLibraryTests
// without the Macros trait (and swift-syntax), and
// SectionRegistryMacrosTests checks that it is what the macro writes.
// @AppModule(level: .late, after: ["Reports"])
struct Exports: AnsweringByTypeName, AppModule {}

@section("app_modules") @used
let _appModuleRecord_Exports: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text, SectionRegistry._AppModuleRecordLayout.Text) = (
    // module Exports, 384 bytes
    (0xA5A5_0001, 2, 384, 0, 4, 0, 0, { SectionRegistry.AppModuleHandle(Exports()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x7374726f707845, 0, 0, 0, 0, 0, 0, 0)),
    // after: Reports
    (0xA5A5_0002, 1, 0, 0, 0, (0x7374726f706552, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    // source file: Exports/Exports.swift
    (0xA5A5_0002, 2, 0, 0, 0, (0x2f7374726f707845, 0x2e7374726f707845, 0x7466697773, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
)
