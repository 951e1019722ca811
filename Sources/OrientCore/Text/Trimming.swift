/// The bytes that surround values in text files and sysfs: spaces, tabs and line ends.
@inlinable
func isBlank(_ byte: UInt8) -> Bool {
  byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
    || byte == UInt8(ascii: "\r")
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and line ends.
  package var trimmingSpaces: Substring {
    let text = Substring(self)
    let utf8 = text.utf8
    guard let start = utf8.firstIndex(where: { !isBlank($0) }) else { return text[text.endIndex...] }
    let end = utf8.lastIndex(where: { !isBlank($0) })!
    return text[start...end]
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The bytes without leading blanks, and without trailing blanks or NULs (libiio and the
  /// kernel may end a value with either).
  var trimmingBlanks: Slice<UnsafeBufferPointer<UInt8>> {
    var start = startIndex
    var end = endIndex
    while start < end, isBlank(self[start]) { start += 1 }
    while end > start, isBlank(self[end - 1]) || self[end - 1] == 0 { end -= 1 }
    return self[start..<end]
  }
}
