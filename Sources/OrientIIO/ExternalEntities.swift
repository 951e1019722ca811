import OrientSystem

/// Keeps libxml2 from loading files a remote iiod names.
///
/// libiio 0.24 parses a context's XML with DTD validation on, and libxml2 then loads an
/// external DTD or entity the XML names: `<!DOCTYPE context SYSTEM "/etc/shadow">` from a
/// server made orientd, as root, open that file and print its first line in a parser
/// error, and a FIFO or `/dev/kmsg` there blocked the sensor thread for good. Real contexts
/// carry their DTD inline, so every external load is refused: libxml2's entity loader is
/// replaced, once, before the first context is created. `xml:` files are read by orientd
/// itself (see `IIOContext`), so no document is ever loaded through the loader.
enum ExternalEntities {
  private typealias Loader =
    @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> OpaquePointer?
  private typealias SetLoader = @convention(c) (Loader?) -> Void

  /// Installs the refusing loader the first time it is read; true when libxml2 was found.
  static let refused: Bool = {
    // libxml2 is loaded with libiio; orientd does not link it itself.
    guard let address = DynamicSymbol.address(of: "xmlSetExternalEntityLoader") else { return false }
    let setLoader = unsafeBitCast(address, to: SetLoader.self)
    setLoader { _, _, _ in nil }
    return true
  }()
}
