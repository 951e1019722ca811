import Glibc

/// What fstat or lstat tells about a file.
public struct FileStatus: Equatable, Sendable {
  /// The kinds of file orientd tells apart.
  public enum Kind: Sendable {
    case regular
    case directory
    case symbolicLink
    case socket
    case fifo
    case characterDevice
    case blockDevice
  }

  public var kind: Kind
  public var device: UInt64
  public var inode: UInt64
  /// Hard links; 0 once the file was removed while still open.
  public var linkCount: UInt64
  public var size: Int64
  /// The permission bits, with set-id and sticky bits.
  public var permissions: UInt32
  public var owner: UInt32
  public var group: UInt32

  init(_ info: stat) {
    switch info.st_mode & S_IFMT {
    case S_IFDIR: kind = .directory
    case S_IFLNK: kind = .symbolicLink
    case S_IFSOCK: kind = .socket
    case S_IFIFO: kind = .fifo
    case S_IFCHR: kind = .characterDevice
    case S_IFBLK: kind = .blockDevice
    default: kind = .regular
    }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    linkCount = UInt64(info.st_nlink)
    size = Int64(info.st_size)
    permissions = UInt32(info.st_mode & 0o7777)
    owner = info.st_uid
    group = info.st_gid
  }
}
