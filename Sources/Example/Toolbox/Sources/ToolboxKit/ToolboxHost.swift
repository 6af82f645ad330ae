import SectionRegistry

/// The running host, for a command that uses a module's service: main.swift
/// binds it around the parsing and running.
public enum ToolboxHost {
    @TaskLocal public static var current: ModuleHost?
}
