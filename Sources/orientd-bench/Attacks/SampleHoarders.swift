import Glibc
import OrientSystem

/// `sample-hoarders SOCKET COUNT`: COUNT connections that each ask for every sample
/// (`samples raw`) and never read, with receive buffers as small as the kernel allows, so
/// orientd renders every sample for each of them and their backlogs fill at once. It prints
/// `connections COUNT` once all are subscribed, then holds them until it is killed.
let sampleHoarders = Attack(
  usage: "SOCKET COUNT: COUNT connections ask for every sample and never read, until killed"
) { arguments in
  guard arguments.count == 2, let count = Int(arguments[1]), count > 0 else {
    throw SystemError("usage: sample-hoarders SOCKET COUNT", code: .invalidArgument)
  }
  raiseOpenFileLimit(to: count + 64)
  for _ in 0..<count {
    let connection = try UnixSocket.connect(path: arguments[0])
    var size: Int32 = 1
    _ = setsockopt(connection.rawValue, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    try connection.sendAll("samples raw\n")
    // Held open, unread, until the process ends.
    _ = connection.release()
  }
  try StandardStream.output.write("connections \(count)\n")
  while true { pause() }
}
