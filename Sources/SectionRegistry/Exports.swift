// The record ABI, discovery, the registry and the start order live in the
// ModuleRecords target, which the inspector and the fuzzers use without the
// host; users import SectionRegistry alone and see both.
@_exported import ModuleRecords
