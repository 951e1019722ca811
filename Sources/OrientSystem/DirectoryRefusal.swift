/// Why a directory for orientd's own files (its state, its socket) was refused or could not
/// be opened or made.
package struct DirectoryRefusal: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  package enum Reason: Sendable {
    /// Owned by a user other than root or this process's effective user, who could change it.
    case ownedByAnotherUser(uid: UInt32)
    /// Group or others may write it and it has no sticky bit: they could swap its entries.
    case writableByOthers(permissions: UInt32)
    /// A symbolic link in a directory others may write: they could point it anywhere.
    case linkInSharedDirectory
    /// Something other than a directory where a directory is needed.
    case notADirectory
    /// More symbolic links than a path may go through.
    case tooManyLinks
    /// A missing directory could not be made.
    case cannotCreate(Errno)
    /// A directory on the way could not be opened.
    case cannotOpen(Errno)
  }

  /// The directory that was asked for.
  package let directory: String
  /// The directory, ancestor or link that the reason is about.
  let offending: String
  package let reason: Reason

  /// Whether the directory is unsafe or unusable as configured (exit 78), rather than one that
  /// could not be made or opened (exit 73).
  package var isUnsafe: Bool {
    switch reason {
    case .cannotCreate, .cannotOpen: return false
    default: return true
    }
  }

  package var description: String {
    let subject = offending == directory ? offending : "\(offending), on the way to \(directory),"
    let place = offending == directory ? offending : "\(offending) (on the way to \(directory))"
    switch reason {
    case .ownedByAnotherUser(let uid):
      let owner = DirectoryTrust.effectiveUser == 0 ? "root" : "root or uid \(DirectoryTrust.effectiveUser)"
      return "\(subject) is owned by uid \(uid), not by \(owner); its owner could change it under orientd"
    case .writableByOthers(let permissions):
      return "\(subject) has mode \(octal(permissions)): other users can write it and it has no sticky bit"
    case .linkInSharedDirectory:
      return "\(subject) is a symbolic link in a directory other users can write; it is not followed"
    case .notADirectory:
      return "\(subject) is not a directory"
    case .tooManyLinks:
      return "too many symbolic links on the way to \(directory)"
    case .cannotCreate(let code):
      return "cannot create \(place): \(code)"
    case .cannotOpen(let code):
      return "cannot open \(place): \(code)"
    }
  }

  private func octal(_ permissions: UInt32) -> String {
    let digits = String(permissions, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
