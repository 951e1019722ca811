import Glibc

/// Functions looked up by name among the libraries the process has loaded.
package enum DynamicSymbol {
  /// The address of `name` in the first loaded library that defines it (`RTLD_DEFAULT`),
  /// or nil.
  ///
  /// For a library orientd does not link against but one of its libraries does: asking
  /// for it at run time needs no development files at build time.
  package static func address(of name: String) -> UnsafeMutableRawPointer? {
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)
  }
}
