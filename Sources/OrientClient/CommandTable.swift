import OrientCore

/// orientctl's commands and their options, as parsing checks them (and suggests the option
/// meant) and the shell completions offer them. The help text says the same in prose; a
/// test holds the completions to it.
enum CommandTable {
  /// The options orientctl takes before (or after) any command.
  static let globalOptions: [CompletionSpec.Option] = [
    .init("socket", value: .file, summary: "orientd's socket"),
    .init("timeout", value: .text(hint: "seconds"), summary: "how long orientd may take to answer"),
    .init("help", short: "h", summary: "print the help", isTerminal: true),
    .init("version", short: "V", summary: "print the version", isTerminal: true),
  ]

  private static let orientations = ScreenOrientation.allCases.map(\.name)

  /// `monitor`'s and `hook`'s `--supports LIST`: the orientations the client can show.
  private static let supports = CompletionSpec.Option(
    "supports", value: .list(orientations, alone: []),
    summary: "only these orientations, as the client supports")

  /// Every command, in the order the help lists them.
  static let commands: [CompletionSpec.Command] = [
    .init(
      "get", summary: "print the current state, or one field",
      options: [.init("json", summary: "as JSON")], arguments: .choices(StateSnapshot.fields),
      operands: "[FIELD]"),
    .init(
      "monitor", summary: "print the state and every change",
      options: [
        .init("json", summary: "as JSON objects"),
        .init("iio-sensor-proxy", summary: "as monitor-sensor prints the sensors"),
        .init("no-reconnect", summary: "exit 69 when orientd is not there or goes, instead of waiting"),
        supports,
      ]),
    .init(
      "lock", summary: "lock the screen orientation",
      options: [.init("toggle", summary: "lock to the current orientation, or unlock when locked")],
      arguments: .choices(orientations), operands: "[ORIENTATION]"),
    .init("unlock", summary: "follow the device again"),
    .init("rotate", summary: "lock to the next allowed orientation", arguments: .choices(["cw", "ccw"])),
    .init(
      "allow", summary: "set the allowed screen orientations", arguments: .list(orientations, alone: ["all"]),
      operands: "all|LIST"),
    .init("accept-suggestion", summary: "lock the screen to the rotation suggested now"),
    .init("mode", summary: "set the mode", arguments: .choices(["tablet", "laptop", "auto"])),
    .init(
      "samples", summary: "print every sample in g",
      options: [.init("raw", summary: "before the mount matrix")]),
    .init("doctor", summary: "explain the sensor, its set-up, the state and the hooks"),
    .init(
      "calibrate", summary: "measure three poses and print the mount matrix",
      options: [
        .init("yes", summary: "take each pose once steady, without Enter"),
        .init("json", summary: "print JSON"),
      ]),
    .init(
      "hook", summary: "run a command on every change of the screen orientation or the mode",
      options: [
        .init("timeout", value: .text(hint: "seconds"), summary: "kill the command after this long"),
        .init("oneshot", summary: "run the command once for the current state, then exit"),
        supports,
      ], arguments: .command, operands: "[--] COMMAND [ARGUMENT]..."),
    .init(
      "completion", summary: "print the completion script for bash, zsh or fish",
      arguments: .choices(CompletionSpec.Shell.allCases.map(\.rawValue))),
    .init(
      "help", summary: "print the help, or one command's", arguments: .choices(names), operands: "[COMMAND]"),
  ]

  /// The command names, in the help's order.
  static let names = [
    "get", "monitor", "lock", "unlock", "rotate", "allow", "accept-suggestion", "mode", "samples", "doctor",
    "calibrate", "hook", "completion", "help",
  ]

  /// `--name` for each option `command` takes itself.
  static func options(of command: String) -> [String] {
    (commands.first { $0.name == command }?.options ?? []).map { "--" + $0.name }
  }

  /// `usage: COMMAND ...` for a bad use of `command`: made from the table, it names every
  /// option the command takes.
  static func usage(_ command: String) -> String {
    "usage: " + (commands.first { $0.name == command }?.synopsis ?? command)
  }

  /// The global options as typed: `--socket`, ...
  static var globalNames: [String] { globalOptions.map { "--" + $0.name } }

  /// What the shells complete for orientctl.
  static var completionSpec: CompletionSpec {
    CompletionSpec(program: "orientctl", options: globalOptions, commands: commands)
  }

  /// `unknown option 'WORD'`, with the closest of `candidates` when one is near.
  static func unknownOption(_ word: String, among candidates: [String]) -> String {
    let suggestion =
      TypoSuggestion.closest(to: word, among: candidates).map { " (did you mean \($0)?)" } ?? ""
    return "unknown option '\(word)'\(suggestion)"
  }
}
