/// Where a record sits in its section, to name it in diagnostics.
package struct RecordLocation: Sendable, Hashable, CustomStringConvertible {
    /// The record's slot in the section, counting from 0 (the anchor and
    /// skipped records take slots too). Not an order: linkers place records
    /// as they please.
    public let index: Int
    /// Bytes from the start of the section.
    public let byteOffset: Int
    /// The file with the `APP_MODULE` line, when the record names it.
    public let sourceFile: String?
    /// The image (program or shared object) whose section holds the record,
    /// when it was read from a loaded image.
    public let image: String?

    public init(index: Int, byteOffset: Int, sourceFile: String?, image: String? = nil) {
        self.index = index
        self.byteOffset = byteOffset
        self.sourceFile = sourceFile
        self.image = image
    }

    public var description: String {
        let offset = "offset 0x" + String(byteOffset, radix: 16)
        let record = image.map { "record #\(index) of \($0)" } ?? "record #\(index)"
        return record + " (" + [sourceFile, offset].compactMap { $0 }.joined(separator: ", ") + ")"
    }
}
