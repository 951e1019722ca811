import Glibc

/// The credentials this process runs with.
package enum ProcessCredentials {
  /// The effective user id: whose files and sockets this process makes.
  package static var effectiveUserID: UInt32 { geteuid() }
}
