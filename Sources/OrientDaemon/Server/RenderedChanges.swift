import OrientCore

/// One batch of changes as some clients are told it, rendered in a format only when a client
/// of that format first needs it, and then reused for every other such client.
struct RenderedChanges {
  /// The changes, in publication order.
  let changes: [StateChange]
  private var text: [[UInt8]]?
  private var json: [[UInt8]]?

  /// A batch not rendered yet.
  init(_ changes: [StateChange]) { self.changes = changes }

  /// The lines of the changes `subscription` includes, in `format`, as one write.
  mutating func bytes(format: MessageFormat, subscription: Subscription) -> [UInt8] {
    let lines = rendered(format)
    var bytes: [UInt8] = []
    for (index, change) in changes.enumerated() where subscription.includes(change) { bytes += lines[index] }
    return bytes
  }

  private mutating func rendered(_ format: MessageFormat) -> [[UInt8]] {
    if format == .json, let json { return json }
    if format == .text, let text { return text }
    let lines = changes.map { Array(ProtocolRendering.line(for: $0, format: format).utf8) }
    if format == .json { json = lines } else { text = lines }
    return lines
  }
}
