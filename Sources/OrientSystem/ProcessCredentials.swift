import Glibc

/// The credentials this process runs with.
public enum ProcessCredentials {
  /// The effective user id: whose files and sockets this process makes.
  public static var effectiveUserID: UInt32 { geteuid() }
}
