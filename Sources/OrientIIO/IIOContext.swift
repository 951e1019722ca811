import CIIO
import OrientCore
import OrientSystem

/// An open libiio context: the local sysfs backend, or a remote one such as `ip:HOST`.
package final class IIOContext {
  let pointer: OpaquePointer
  /// The URI as the user gave it, or `local:` for the default.
  package let uri: String

  /// Opens a context; nil opens the local one.
  ///
  /// A context other than the local one is held to `RemoteContextLimits`: an iiod is asked
  /// for its context's size before libiio fetches it, and every context libiio built is
  /// checked for its device count and size. After a refusal or a failure, the memory libiio
  /// freed is given back to the kernel.
  init(uri: String?) throws(IIOError) {
    let target = uri ?? "local:"
    let isRemote = target != "local:"
    _ = ExternalEntities.refused
    try RemoteContextLimits.checkAnnouncedSize(uri: target)
    guard let pointer = try Self.create(target) else {
      let code = Errno.current
      if isRemote { MemoryRelease.trimHeap() }
      throw .contextUnavailable(SystemError("cannot open IIO context \(target)", code: code), hint: nil)
    }
    if isRemote, let reason = Self.excess(of: pointer) {
      iio_context_destroy(pointer)
      MemoryRelease.trimHeap()
      throw .contextRefused(uri: target, reason: reason)
    }
    self.pointer = pointer
    self.uri = target
  }

  /// Opens the context `uri` names (nil: the local one), with a hint of what to try when it
  /// fails, or `noIIODevices` when the local one was asked for on a machine without IIO.
  package static func open(uri: String?) throws(IIOError) -> IIOContext {
    let cause: SystemError
    do {
      return try IIOContext(uri: uri)
    } catch {
      guard case .contextUnavailable(let failure, _) = error else { throw error }
      cause = failure
    }
    if uri == nil, cause.code == .noSuchFile, !FileSystem.exists("/sys/bus/iio/devices") {
      throw .noIIODevices
    }
    let hint =
      uri == nil
      ? "is the kernel's IIO subsystem present? try --uri ip:HOST for a remote iiod, or --demo"
      : "is iiod running and reachable there? try --demo to run without a sensor"
    throw .contextUnavailable(cause, hint: hint)
  }

  /// Creates the context `target` names. An `xml:` file is read here, up to the size limit
  /// and only if it is a regular file, and handed to libiio from memory: libxml2 then loads
  /// no file itself, and the loader that refuses external files (see `ExternalEntities`)
  /// stays in place for everything.
  private static func create(_ target: String) throws(IIOError) -> OpaquePointer? {
    guard target.hasPrefix("xml:") else { return iio_create_context_from_uri(target) }
    let path = String(target.dropFirst(4))
    let bytes: [UInt8]
    let kind: FileStatus.Kind
    do throws(SystemError) {
      let file = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking])
      kind = try file.status().kind
      bytes = kind == .regular ? try file.readAll(limit: RemoteContextLimits.maximumXMLBytes) : []
    } catch  where error.code == .fileTooLarge {
      throw .contextRefused(
        uri: target,
        reason: "\(path) is larger than the limit of \(RemoteContextLimits.maximumXMLBytes) bytes (1 MiB)")
    } catch {
      throw .contextUnavailable(
        SystemError("cannot open IIO context \(target): \(error.operation)", code: error.code), hint: nil)
    }
    guard kind == .regular else {
      throw .contextRefused(uri: target, reason: "\(path) is not a regular file")
    }
    return bytes.withUnsafeBufferPointer { xml in
      xml.withMemoryRebound(to: CChar.self) { iio_create_xml_context_mem($0.baseAddress, $0.count) }
    }
  }

  /// Why a context libiio built is over the limits, or nil.
  private static func excess(of pointer: OpaquePointer) -> String? {
    let devices = Int(iio_context_get_devices_count(pointer))
    if devices > RemoteContextLimits.maximumDevices {
      return "it has \(devices) devices, more than the limit of \(RemoteContextLimits.maximumDevices)"
    }
    if let xml = iio_context_get_xml(pointer) {
      var length = 0
      while length <= RemoteContextLimits.maximumXMLBytes, xml[length] != 0 { length += 1 }
      if length > RemoteContextLimits.maximumXMLBytes {
        return "its XML is larger than the limit of \(RemoteContextLimits.maximumXMLBytes) bytes (1 MiB)"
      }
    }
    return nil
  }

  deinit { iio_context_destroy(pointer) }

  /// True for the local sysfs backend, the only one udev knows about.
  package var isLocal: Bool {
    String(cString: iio_context_get_name(pointer)) == "local"
  }

  /// Bounds how long a remote read may wait (in whole milliseconds, as libiio takes it).
  package func setTimeout(_ timeout: Duration) {
    _ = iio_context_set_timeout(pointer, UInt32(clamping: max(0, timeout.wholeMilliseconds)))
  }

  /// Every device in the context, in libiio's order.
  package var devices: [IIODevice] {
    let count = iio_context_get_devices_count(pointer)
    return (0..<count).compactMap { index in
      iio_context_get_device(pointer, index).map { IIODevice(pointer: $0, context: self) }
    }
  }
}
