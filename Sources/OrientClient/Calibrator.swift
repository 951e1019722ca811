import OrientCore
import OrientSystem

/// `orientctl calibrate`: measures gravity in three poses and works out the mount matrix.
///
/// Interactive by default (Enter at each pose); with `automatic` it takes each pose on its
/// own once the reading is steady and the device has clearly moved from the last pose.
struct Calibrator {
  let session: Session
  let automatic: Bool
  let json: Bool

  /// The measured poses, the fit and the current matrix.
  private struct Outcome {
    var measured: [Vector3]
    var fit: CalibrationFit
    var current: String
    var currentSource: String
    var hwdbKey: String
    var device: String
  }

  /// The poses' names, in CalibrationPose's order.
  private static let poseNames = ["normal", "left-up", "face-up"]

  /// Why no pose was measured.
  private enum PoseFailure: Error {
    /// stdin ended, or no steady pose came in time: the user may try again (75).
    case aborted
    /// orientd closed the connection.
    case lost
  }

  func run() -> Int32 {
    guard let items = session.info() else { return session.lost() }
    func value(_ key: String) -> String? { items.first { $0.key == key }?.value }
    guard let device = value("device") else {
      StandardStream.error.report(
        "orientctl: calibrate needs an IIO sensor; orientd reports: \(value("sensor") ?? "none")\n")
      return ExitCode.unavailable.rawValue
    }
    guard session.connection.send("samples raw") else { return session.lost() }
    say("Calibrating \(value("sensor") ?? device). Each pose is measured for about a second.")
    var measured: [Vector3] = []
    for (index, pose) in CalibrationPose.allCases.enumerated() {
      let prompt = "\(index + 1)/3: \(pose.instruction)"
      do {
        let reading =
          try automatic ? waitForSteadyPose(prompt, after: measured) : askForPose(prompt, after: measured)
        say("   measured \(describe(reading)) g")
        measured.append(reading)
      } catch .aborted {
        return ExitCode.temporaryFailure.rawValue
      } catch {
        return session.lost()
      }
    }
    _ = session.connection.send("samples off")
    let fit: CalibrationFit
    do {
      fit = try CalibrationFit(normal: measured[0], leftUp: measured[1], faceUp: measured[2])
    } catch {
      // The poses were measured but do not fit together: the data, not orientd, is wrong.
      StandardStream.error.report("orientctl: \(error.message)\n")
      return ExitCode.dataError.rawValue
    }
    if fit.isMirrored {
      // A fix that mirrors would turn one axis the wrong way for good: refuse it.
      StandardStream.error.report(
        "orientctl: the poses fit only a mirrored matrix (\(MountMatrix.formatRounded(fit.matrix)),"
          + " determinant \(DecimalFormatting.signedFixed(fit.determinant, decimals: 3))): a sensor turned as asked cannot give that, so one pose was not the one"
          + " asked for (the screen down instead of up, or the right edge up instead of the left)."
          + " Run calibrate again.\n")
      return ExitCode.dataError.rawValue
    }
    let outcome = Outcome(
      measured: measured, fit: fit, current: value("matrix") ?? "",
      currentSource: value("matrix-from") ?? "unknown",
      hwdbKey: value("hwdb-key") ?? HwdbKey.make(modalias: "", dmi: ""), device: device)
    _ = session.write(json ? jsonReport(outcome) : textReport(outcome))
    return 0
  }

  // MARK: Poses

  /// Interactive: Enter starts a 1 s measurement; an unsteady or odd one, or one that repeats
  /// an earlier pose, is refused and asked again.
  private func askForPose(_ prompt: String, after previous: [Vector3]) throws(PoseFailure) -> Vector3 {
    while true {
      say(prompt + ", then press Enter.")
      try waitForEnter()
      let samples = session.collectSamples(for: .milliseconds(1200))
      switch PoseReading(samples: samples) {
      case .steady(let mean):
        guard let earlier = Self.earlierPose(matching: mean, in: previous) else { return mean }
        say(
          "   pose rejected: it is the same as pose \(earlier + 1) (\(Self.poseNames[earlier]));"
            + " turn the device as asked. Try again.")
      case let rejected: say("   pose rejected: \(explain(rejected)). Try again.")
      }
    }
  }

  /// The index of the earlier pose `reading` repeats: within 45 degrees of it, where the three
  /// poses are 90 degrees apart.
  private static func earlierPose(matching reading: Vector3, in previous: [Vector3]) -> Int? {
    previous.firstIndex { $0.angle(to: reading) < 45 }
  }

  /// Automatic: a sliding second of samples, taken once steady, near 1 g, and moved.
  private func waitForSteadyPose(_ prompt: String, after previous: [Vector3]) throws(PoseFailure) -> Vector3 {
    say(prompt + "; waiting for a steady reading...")
    var window: [SampleLine] = []
    var lastComplaint = ""
    let deadline = MonotonicInstant.now + .seconds(120)
    while MonotonicInstant.now < deadline {
      let line: String
      switch session.connection.readLine(timeout: .seconds(1)) {
      case .closed: throw .lost
      case .timedOut: continue
      case .line(let text): line = text
      }
      guard let sample = SampleLine(line) else { continue }
      window.append(sample)
      window.removeAll { sample.time - $0.time > 1.0 }
      guard window.count >= 5, sample.time - window[0].time >= 0.8 else { continue }
      let reading = PoseReading(samples: window.map(\.vector))
      guard case .steady(let mean) = reading else {
        let complaint = explain(reading)
        if complaint.prefix(12) != lastComplaint.prefix(12) { say("   not yet: \(complaint)") }
        lastComplaint = complaint
        continue
      }
      // The same pose as before means the device has not been turned yet.
      if Self.earlierPose(matching: mean, in: previous) != nil { continue }
      return mean
    }
    StandardStream.error.report("orientctl: calibration timed out waiting for a steady pose\n")
    throw .aborted
  }

  private func explain(_ reading: PoseReading) -> String {
    switch reading {
    case .steady: return "steady"
    case .shaking(let spread):
      return
        "the reading was not steady (it moved by \(DecimalFormatting.fixed(spread, decimals: 2)) g); hold still"
    case .notOneG(let magnitude):
      return "the reading was \(DecimalFormatting.fixed(magnitude, decimals: 2)) g, not about 1 g"
        + " (moving, or a wrong scale)"
    case .tooFew(let count):
      return "only \(count) samples arrived; tilt the device a little to wake the sensor"
    }
  }

  /// Waits for a line on stdin, dropping samples meanwhile.
  private func waitForEnter() throws(PoseFailure) {
    let watched: [(descriptor: Int32, events: IOEvents)] = [
      (StandardStream.input.descriptor, .readable), (session.connection.fileDescriptor, .readable),
    ]
    while true {
      while session.connection.hasBufferedLine { _ = session.connection.readLine() }
      // A failed poll leaves nothing to wait on: the session is lost, which `.lost` reports.
      guard let ready = try? Readiness.wait(watched, timeout: nil) else { throw .lost }
      if !ready[1].isEmpty {
        if case .closed = session.connection.readLine(timeout: .zero) { throw .lost }
      }
      if !ready[0].isEmpty {
        var byte: UInt8 = 0
        while true {
          let count: Int
          do throws(SystemError) {
            count = try withUnsafeMutableBytes(of: &byte) { (bytes) throws(SystemError) in
              try StandardStream.input.read(into: bytes)
            }
          } catch {
            StandardStream.error.report("orientctl: calibration aborted: cannot read stdin: \(error)\n")
            throw .aborted
          }
          guard count > 0 else {
            StandardStream.error.report("orientctl: calibration aborted: stdin closed\n")
            throw .aborted
          }
          if byte == 0x0A { return }
        }
      }
    }
  }

  // MARK: Reports

  private func describe(_ vector: Vector3) -> String {
    "("
      + [vector.x, vector.y, vector.z].map { DecimalFormatting.signedFixed($0, decimals: 3) }.joined(
        separator: ", ")
      + ")"
  }

  private func isAlreadyRight(_ outcome: Outcome) -> Bool {
    // A current matrix that does not parse is not already right: the new one is worth saving.
    guard let current = try? MountMatrix.parse(outcome.current) else { return false }
    return zip(current.rows, outcome.fit.matrix.rows).allSatisfy {
      Vector3($0.x - $1.x, $0.y - $1.y, $0.z - $1.z).magnitude < 0.05
    }
  }

  private func textReport(_ outcome: Outcome) -> String {
    let fit = outcome.fit
    let matrix = MountMatrix.formatRounded(fit.matrix)
    var text = ""
    if fit.rounded != nil {
      text += "Mount matrix: \(matrix)\n"
      text +=
        "  (the measured fit is within \(DecimalFormatting.fixed(fit.deviation, decimals: 1)) degrees of it)\n"
    } else {
      text += "Mount matrix: \(matrix)\n"
      text +=
        "  WARNING: the fit is \(DecimalFormatting.fixed(fit.deviation, decimals: 1)) degrees from the nearest"
        + " axis-aligned matrix; this is the fitted matrix as measured. Repeat the poses more carefully if the"
        + " sensor should be axis-aligned.\n"
    }
    text +=
      "Orthonormal: \(fit.isOrthonormal ? "yes" : "NO"); determinant "
      + "\(DecimalFormatting.signedFixed(fit.determinant, decimals: 3))"
      + (fit.determinant > 0 ? " (a rotation)\n" : " (a mirror: the axes are not right-handed)\n")
    text += "Current matrix: \(outcome.current) from \(outcome.currentSource)\n\n"
    if isAlreadyRight(outcome) {
      text += "Verdict: the current matrix is already right; nothing to change.\n"
      return text
    }
    text += "Verdict: the current matrix is wrong; here is the fix.\n\n"
    text += "For every program (systemd hwdb), put this in /etc/udev/hwdb.d/61-sensor-local.hwdb:\n\n"
    text += HwdbKey.entry(key: outcome.hwdbKey, matrix: fit.matrix) + "\n"
    if let warning = Self.hwdbKeyWarning(outcome.hwdbKey) { text += "  WARNING: \(warning)\n\n" }
    text += "then load it:\n"
    text += "  sudo systemd-hwdb update\n"
    text += "  sudo udevadm trigger -v -p DEVNAME=/dev/\(outcome.device)\n\n"
    text += "Or for orientd only, in /etc/orientd/orientd.conf:\n\n"
    text += "  mount-matrix = \(matrix)\n\n"
    // orientd reads the matrix when it sets the sensor up; a reload (SIGHUP) keeps the old one.
    text += "Either way, restart orientd to apply it (sudo systemctl restart orientd); a reload does not.\n"
    return text
  }

  /// What is wrong with an hwdb key that matches more than this sensor on this machine: what
  /// orientd did not know (the sensor's modalias, the machine's DMI data), nil when nothing.
  static func hwdbKeyWarning(_ key: String) -> String? {
    let anySensor = key.hasPrefix("sensor:modalias:*:")
    let anyMachine = key.hasSuffix(":dmi:*")
    guard anySensor || anyMachine else { return nil }
    let what =
      anySensor && anyMachine
      ? "every sensor on every machine (orientd knows neither the sensor's modalias nor the machine's DMI data)"
      : anySensor
        ? "every sensor on this machine (orientd does not know the sensor's modalias)"
        : "this sensor on every machine (orientd does not know the machine's DMI data)"
    return
      "this key matches \(what); replace the '*' with the values from 'udevadm info' on the sensor's"
      + " parent and /sys/class/dmi/id/modalias, or use the orientd.conf line instead"
  }

  private func jsonReport(_ outcome: Outcome) -> String {
    let fit = outcome.fit
    func quoted(_ text: String) -> String { "\"" + JSON.escape(text) + "\"" }
    let poses = zip(Self.poseNames, outcome.measured).map { name, vector in
      "\(quoted(name)):[\(vector.x),\(vector.y),\(vector.z)]"
    }
    let fields = [
      "\"measured\":{\(poses.joined(separator: ","))}",
      "\"matrix\":\(quoted(MountMatrix.formatRounded(fit.matrix)))",
      "\"fitted\":\(quoted(MountMatrix.formatRounded(fit.fitted)))",
      "\"rounded\":\(fit.rounded != nil)",
      "\"deviation_degrees\":\(DecimalFormatting.fixed(fit.deviation, decimals: 2))",
      "\"orthonormal\":\(fit.isOrthonormal)",
      "\"determinant\":\(DecimalFormatting.fixed(fit.determinant, decimals: 4))",
      "\"current\":\(quoted(outcome.current))",
      "\"current_source\":\(quoted(outcome.currentSource))",
      "\"already_right\":\(isAlreadyRight(outcome))",
      "\"hwdb_key\":\(quoted(outcome.hwdbKey))",
      "\"hwdb_entry\":\(quoted(HwdbKey.entry(key: outcome.hwdbKey, matrix: fit.matrix)))",
      "\"hwdb_warning\":\(Self.hwdbKeyWarning(outcome.hwdbKey).map(quoted) ?? "null")",
      "\"config_line\":\(quoted("mount-matrix = " + MountMatrix.formatRounded(fit.matrix)))",
    ]
    return "{" + fields.joined(separator: ",") + "}\n"
  }

  /// Progress and prompts go to stderr, so stdout holds only the result.
  private func say(_ text: String) {
    StandardStream.error.report(text + "\n")
  }
}
