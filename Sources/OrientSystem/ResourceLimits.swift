import Glibc

/// Raises the soft limit on open files towards `wanted`, up to the hard limit.
///
/// Each client is a descriptor; the usual soft limit of 1024 would cap the clients
/// well below what `--max-clients` asks for.
package func raiseOpenFileLimit(to wanted: Int) {
  var limit = rlimit()
  guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
  let target = min(rlim_t(wanted), limit.rlim_max)
  guard limit.rlim_cur < target else { return }
  limit.rlim_cur = target
  if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
    Log.warning("cannot raise the open-file limit to \(target): \(Errno.current)")
  }
}
