import Glibc

/// What fstat or lstat tells about a file.
package struct FileStatus: Equatable, Sendable {
  /// The kinds of file orientd tells apart.
  package enum Kind: Sendable {
    case regular
    case directory
    case symbolicLink
    case socket
    case fifo
    case characterDevice
    case blockDevice

    /// The kind with its article, for messages: "a FIFO".
    package var name: String {
      switch self {
      case .regular: return "a regular file"
      case .directory: return "a directory"
      case .symbolicLink: return "a symbolic link"
      case .socket: return "a socket"
      case .fifo: return "a FIFO"
      case .characterDevice: return "a character device"
      case .blockDevice: return "a block device"
      }
    }
  }

  package var kind: Kind
  package var device: UInt64
  var inode: UInt64
  /// Hard links; 0 once the file was removed while still open.
  package var linkCount: UInt64
  package var size: Int64
  /// The permission bits, with set-id and sticky bits.
  package var permissions: UInt32
  package var owner: UInt32
  package var group: UInt32

  /// The device a character or block device file stands for (st_rdev); 0 for other files.
  var specialDevice: UInt64

  /// Whether this is the null device (1, 3), which reads as empty and never waits.
  var isNullDevice: Bool {
    // glibc's dev_t: the major number in bits 8-19 and 32-43, the minor in 0-7 and 20-31.
    let major = (specialDevice >> 8) & 0xfff | (specialDevice >> 32) & ~0xfff
    let minor = specialDevice & 0xff | (specialDevice >> 12) & ~0xff
    return kind == .characterDevice && major == 1 && minor == 3
  }

  /// Whether root or this process's effective user owns the file.
  package var isOwnedByRootOrUs: Bool { owner == 0 || owner == DirectoryTrust.effectiveUser }

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
    specialDevice = UInt64(info.st_rdev)
  }
}
