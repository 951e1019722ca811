import OrientCore

/// What `orientd` was asked to do.
package enum DaemonAction: Equatable, Sendable {
  /// Run the pipeline (daemon mode, or `--dump`).
  case run
  /// List accelerometers and exit.
  case list
  /// Read the config file and the command line as a run would, report the first mistake, and
  /// exit: what `systemctl reload` runs before it signals orientd.
  case checkConfig
  /// Print the help and exit.
  case help
  /// Print the version and exit.
  case version
  /// Print the completion script for a shell (named as given: checked when it is run) and exit.
  case completion(String)
}

/// Where samples come from.
package enum SampleSourceChoice: Equatable, Sendable {
  /// An IIO accelerometer through libiio.
  case iio
  /// A trace file replayed.
  case replay(path: String)
  /// The built-in demo trace, looped.
  case demo
}

/// How an IIO sensor is read.
package enum CaptureMode: String, CaseIterable, Sendable {
  /// Buffered capture when the buffer delivers a sample within 1 s, polling otherwise.
  case auto
  /// Read the raw attributes every `--interval`.
  case poll
  /// Buffered capture only.
  case buffer
}

/// Which message bus `net.hadess.SensorProxy` is served on.
package enum BusChoice: String, CaseIterable, Sendable {
  /// The system bus, where desktops look for iio-sensor-proxy (the shipped service).
  case system
  /// The session bus of orientd's user, for trying it out without root.
  case session
  /// No D-Bus service.
  case off
}

/// The parsed command line of `orientd`.
///
/// Why this value has some 30 stored properties: one per option `OptionTable` lists, so that a
/// run's settings are one value to compare on reload (`ReloadPlan`) and to hand to each part.
package struct DaemonOptions: Equatable, Sendable {
  package var action = DaemonAction.run
  package var source = SampleSourceChoice.iio
  /// Print one line per published change to stdout.
  package var dump = false
  /// The libiio context URI; nil means the local context.
  package var uri: String?
  /// A device id, name or label to use instead of the automatic choice.
  package var device: String?
  /// The polling period while the device is handled (`PollPace`).
  package var interval = Duration.milliseconds(200)
  /// The polling period once the device has rested for a while (`PollPace`); never shorter
  /// than `interval`.
  package var restingInterval = Duration.milliseconds(1000)
  /// How the IIO sensor is read.
  package var captureMode = CaptureMode.auto
  package var settings = ClassifierSettings.defaults
  /// Whether a locked screen is offered the rotation the device holds, after how long, for
  /// how long.
  package var suggestion = RotationSuggestion.Settings.defaults
  /// The allowed screen orientations given with `--allowed`; nil leaves the saved or default set.
  package var allowed: AllowedOrientations?
  /// A mount matrix that overrides every other source, as given.
  package var mountMatrix: Matrix3?
  /// A trace file to append every corrected sample to.
  package var recordPath: String?
  /// Log samples and decisions too.
  package var verbose = false
  /// When the screen follows the device: always, only in tablet mode, or auto.
  package var rotate = RotatePolicy.auto
  /// Whether a hinge-given mode is shown as a virtual tablet-mode switch.
  package var virtualTabletSwitch = true
  /// The bus to serve `net.hadess.SensorProxy` on.
  package var bus = BusChoice.off
  /// What D-Bus's `AccelerometerOrientation` follows.
  package var busOrientation = SensorProxyAccelerometer.Source.device
  /// The Unix socket clients connect to.
  package var socketPath = "/run/orientd/orientd.sock"
  /// Whether `--socket` was given (it turns the socket on even with `--dump`).
  package var socketGiven = false
  /// The socket file's permissions.
  package var socketMode: UInt32 = 0o666
  /// The group whose members may run control commands; nil lets every client.
  package var controlGroup: String?
  /// The most clients served at once.
  package var maxClients = 256
  /// The most clients one user other than root and orientd's own may have; nil: a quarter
  /// of `maxClients`.
  package var maxClientsPerUser: Int?
  /// How long a client that has sent no command and read nothing is kept.
  package var idleTimeout = Duration.seconds(30)
  /// The per-user limit in force.
  package var clientsPerUserLimit: Int { maxClientsPerUser ?? max(1, maxClients / 4) }
  /// Where the lock and allowed set are kept across restarts.
  package var statePath = "/var/lib/orientd/state"
  /// Whether `--state` was given (it turns persistence on even with `--dump`).
  package var stateGiven = false
  /// Whether `--allowed` was given on the command line, where it beats the saved set.
  package var allowedGiven = false
  /// The config file's own `allowed =`, whatever the command line says; the state file records
  /// it so that an edit of the file can be told from an old value.
  package var configAllowed: AllowedOrientations?
  /// Commands run (by /bin/sh) on every screen-orientation change.
  package var hooks: [String] = []
  /// A directory whose executables run, in name order, on every change.
  package var hooksDirectory: String?
  /// How long a hook may run before it is killed.
  package var hookTimeout = Duration.seconds(5)
  /// How the panel is mounted, for the hooks' transforms: the kernel's word, or given.
  package var panelOrientation = PanelOrientationSetting.auto

  /// Where each setting given was last set, by name: `file:line` or `--name`.
  package var origins: [String: String] = [:]

  /// The directory the socket and the state file were put in because orientd does not run
  /// as root (see `placeInUserDirectory`); nil when they are where the options say.
  package var userDirectory: String?

  /// Puts the socket and the state file that neither the config file nor the command line
  /// places into `runtime`/orientd: a user other than root cannot create /run/orientd or
  /// /var/lib/orientd, but has a runtime directory of their own ($XDG_RUNTIME_DIR).
  package mutating func placeInUserDirectory(runtime: String) {
    let directory = (runtime.hasSuffix("/") ? runtime : runtime + "/") + "orientd"
    if origins["socket"] == nil { socketPath = directory + "/orientd.sock" }
    if origins["state"] == nil { statePath = directory + "/state" }
    if origins["socket"] == nil || origins["state"] == nil { userDirectory = directory }
  }

  /// Whether orientd serves the socket: always, except for `--dump` without `--socket`.
  package var servesSocket: Bool { !dump || socketGiven }

  /// Whether orientd loads and saves the state file.
  package var persistsState: Bool { servesSocket || stateGiven }

  /// Creates the defaults.
  package init() {}

  /// Builds the options from the config file's entries, then the command line on top.
  ///
  /// A `hook` on the command line replaces the file's hooks rather than adding to them.
  package static func resolve(commandLine: CommandLineArguments, config: [ConfigEntry]) throws(Failure)
    -> DaemonOptions
  {
    var options = try DaemonOptions(config: config)
    try options.overlay(commandLine)
    return options
  }

  /// The defaults with a config file's entries applied; a bad value names file:line and key.
  package init(config: [ConfigEntry]) throws(Failure) {
    self.init()
    for entry in config {
      do {
        try set(entry.key, to: entry.value)
      } catch {
        throw .config("\(entry.location): \(entry.key): \(error.message)")
      }
      origins[entry.key] = entry.location
    }
    configAllowed = allowed
    keepChosenSettle()
    if let conflict = thresholdConflict() {
      let key = origins["hysteresis"] != nil ? "hysteresis" : "threshold"
      throw .config("\(origins[key] ?? key): \(key): \(conflict)")
    }
  }

  /// A settle time someone chose keeps its meaning: unless `still` was chosen too, only the
  /// settle time decides (`ClassifierSettings.still` is for the default settle).
  private mutating func keepChosenSettle() {
    if origins["settle"] != nil, origins["still"] == nil { settings.still = nil }
  }

  /// Why the hysteresis and threshold cannot go together, or nil when they can: the current
  /// orientation must still hold at some positive component.
  private func thresholdConflict() -> String? {
    guard settings.hysteresis >= settings.threshold else { return nil }
    func origin(_ name: String) -> String { origins[name].map { "from \($0)" } ?? "the default" }
    return "the hysteresis must be below the threshold, got hysteresis \(settings.hysteresis) g ("
      + origin("hysteresis") + ") and threshold \(settings.threshold) g (" + origin("threshold") + ")"
  }

  /// Applies the command line over these options and checks the result.
  package mutating func overlay(_ commandLine: CommandLineArguments) throws(Failure) {
    var options = self
    if commandLine.settings.contains(where: { $0.name == "hook" }) { options.hooks = [] }
    for (name, value) in commandLine.settings {
      do {
        try options.set(name, to: value)
      } catch {
        throw .usage("--\(name): \(error.message)")
      }
      options.origins[name] = "--" + name
      if name == "socket" { options.socketGiven = true }
      if name == "state" { options.stateGiven = true }
      if name == "allowed" { options.allowedGiven = true }
    }
    options.keepChosenSettle()
    options.action = commandLine.action
    options.dump = commandLine.dump
    options.source = commandLine.source
    if let conflict = options.thresholdConflict() {
      let given = commandLine.settings.contains { $0.name == "hysteresis" } ? "hysteresis" : "threshold"
      throw .usage("--\(given): \(conflict)")
    }
    do {
      try options.settings.validate()
    } catch {
      throw .usage(error.message)
    }
    if options.action == .list, options.source != .iio {
      throw .usage("--list lists IIO sensors and cannot be combined with --demo or --replay")
    }
    self = options
  }

  /// Sets one setting by its name (the long option without dashes, or the config key).
  package mutating func set(_ name: String, to value: String?) throws(ValueError) {
    guard let option = OptionTable.settings.first(where: { $0.name == name }), let set = option.set else {
      throw ValueError("unknown setting '\(name)'")
    }
    guard let value else {
      guard option.isFlag else { throw ValueError("needs a value") }
      return try set(&self, "yes")
    }
    try set(&self, value)
  }
}
