// The header is the target; SwiftPM wants one source file.
