import OrientCore

/// What the socket's protocol sessions need of the daemon: its state, control, saving, `info`,
/// and a word when what clients need of the sensor changed.
///
/// The daemon implements it; every call comes on the main loop.
protocol SessionHost: AnyObject {
  /// The whole state in protocol order, as a greeting or a `get` reply sends it.
  var snapshot: [StateChange] { get }

  /// The readings of the light sensor, the proximity sensor and the compass.
  var sensorReadings: SensorReadings { get }

  /// The screen policy, from which each client that declared the orientations it supports is
  /// told its own orientation.
  var policy: ScreenPolicy { get }

  /// The rotation suggested to the locked screen now, if any (`get suggestion`).
  var suggested: ScreenOrientation? { get }

  /// Runs a control command. Its changes are published (to every socket client, the
  /// commander too) before it returns. Returns whether the saved state changed (an override
  /// can change it and nothing clients see), or the error to reply with.
  func control(_ command: ClientCommand) -> Result<Bool, ProtocolError>

  /// Asks for the applied changes to be saved for a client of user `requester` (nil when its
  /// user is unknown), whose saves are paced apart from other users'; returns the commit to
  /// wait for before the `ok`, or nil when nothing needs to wait (no state file).
  func commit(for requester: UInt32?) -> UInt64?

  /// What `info` reports; with `full` (a client that may control), hooks and file paths too.
  func info(full: Bool) -> [InfoItem]

  /// What clients need of the sensor changed: a first or last client that hears device
  /// changes or streams samples, or a client that starts waiting for a current state. The
  /// server's `wantsDevice`, `wantsSamples` and `awaitsFreshState` say what they need now.
  func needsChanged()
}
