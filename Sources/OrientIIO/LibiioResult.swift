import OrientSystem

extension Errno {
  /// The errno of a negative libiio result (`-errno`).
  ///
  /// Over the network, libiio passes on the number the server answered: -2147483648 (or
  /// any value past an errno) must not trap when negated and narrowed, so those read as EIO.
  init(libiioResult result: Int) {
    guard result < 0, result >= -Int(Int32.max) else {
      self = .ioError
      return
    }
    self.init(rawValue: Int32(-result))
  }
}
