import SectionRegistry

// The expansion of the attribute below, written out (the package builds
// without the Macros trait); SectionRegistryMacrosTests checks that it is
// what the macro writes. The target depends on SectionRegistryDynamic and
// not on SectionRegistryRecords: its image has no anchor of its own.
// @AppModule
struct Crate: AppModule {}

@section("app_modules") @used
let _appModuleRecord_Crate: (SectionRegistry._AppModuleRecordLayout.Record, SectionRegistry._AppModuleRecordLayout.Text) = (
    // module Crate, 256 bytes
    (0xA5A5_0001, 2, 256, 0, 3, 0, 0, { SectionRegistry.AppModuleHandle(Crate()) }, 0, 0, ({ SectionRegistry._AppModuleRecordLayout.anchorReference() }, 0, 0), (0x6574617243, 0, 0, 0, 0, 0, 0, 0)),
    // source file: Crate/Crate.swift
    (0xA5A5_0002, 2, 0, 0, 0, (0x72432f6574617243, 0x666977732e657461, 0x74, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
)
