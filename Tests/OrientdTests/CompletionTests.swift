import Foundation
import Testing

/// The shell completions the programs print for `make install`, run in real shells and held
/// against `--help`.
@Suite("Shell completions agree with --help", .scratch)
struct CompletionTests {
  /// The completion script `program` prints for `shell`, written to a file.
  static func script(_ program: String, _ shell: String) throws -> String {
    let arguments =
      program == TestPaths.orientd ? [program, "--completion", shell] : [program, "completion", shell]
    let result = try runToCompletion(arguments)
    try #require(result.status == 0, "\(arguments): \(result.stderr)")
    let path = try Scratch.current().makeDirectory("completion") + "/" + shell
    try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// What bash offers for the words of `line` (the last one being completed).
  static func bash(_ program: String, _ line: String) throws -> Set<String> {
    let bash = try #require(TestPaths.which("bash"))
    let name = URL(fileURLWithPath: program).lastPathComponent
    let script = try script(program, "bash")
    let result = try runToCompletion([
      bash, "--norc", "--noprofile", "-c",
      """
      source "$1" || exit 90
      read -r -a COMP_WORDS <<< "$2"
      case "$2" in *" ") COMP_WORDS+=(""); esac
      COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
      function=$(complete -p "$3" | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
      "$function" "$3" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf '%s\\n' "${COMPREPLY[@]}"
      """,
      "bash", script, "\(name) \(line)", name,
    ])
    try #require(result.status == 0, "bash: \(result.stderr)")
    return Set(completeLines(result.stdout))
  }

  /// What fish offers for `line`, without the descriptions.
  static func fish(_ program: String, _ line: String) throws -> Set<String> {
    let fish = try #require(TestPaths.which("fish"), "fish is missing: apt-get install fish")
    let name = URL(fileURLWithPath: program).lastPathComponent
    let script = try script(program, "fish")
    var environment = try Scratch.current().environment
    environment["HOME"] = try Scratch.current().makeDirectory("home")
    environment["XDG_CONFIG_HOME"] = environment["HOME"]
    let result = try runToCompletion(
      [fish, "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, "\(name) \(line)"],
      environment: environment)
    try #require(result.status == 0, "fish: \(result.stderr)")
    return Set(completeLines(result.stdout).map { String($0.split(separator: "\t").first ?? "") })
  }

  /// The `--options` a help text's lines start with (two blanks, then the option).
  static func options(inHelp help: String) -> Set<String> {
    Set(
      help.split(separator: "\n").compactMap { line -> String? in
        let words = line.split(separator: " ")
        guard line.hasPrefix("  "), let first = words.first, first.hasPrefix("--") else { return nil }
        return String(first.split(separator: ",").first!)
      })
  }

  @Test("orientd's bash and fish completions offer exactly the options of orientd --help, and their values")
  func orientdCompletions() throws {
    let help = try runToCompletion([TestPaths.orientd, "--help"]).stdout
    let options = Self.options(inHelp: help)
    #expect(options.count >= 30, "\(options)")
    #expect(try Self.bash(TestPaths.orientd, "--") == options)
    #expect(try Self.fish(TestPaths.orientd, "--") == options)
    #expect(try Self.bash(TestPaths.orientd, "--mode ") == ["auto", "poll", "buffer"])
    #expect(try Self.fish(TestPaths.orientd, "--dbus ") == ["system", "session", "off"])
    #expect(try Self.bash(TestPaths.orientd, "--rotate a") == ["always", "auto"])
  }

  @Test("orientctl's completions offer the commands, options and values of orientctl --help")
  func orientctlCompletions() throws {
    let help = try runToCompletion([TestPaths.orientctl, "--help"]).stdout
    let commands = Set(try ReadmeTests.helpCommands())
    #expect(try Self.bash(TestPaths.orientctl, "") == commands)
    #expect(try Self.fish(TestPaths.orientctl, "") == commands)
    let global = Self.options(inHelp: help.components(separatedBy: "Options:").last ?? "")
    #expect(global.isSuperset(of: ["--socket", "--timeout", "--help", "--version"]), "\(global)")
    #expect(try Self.bash(TestPaths.orientctl, "--") == global)
    // Each command's options, as its help line spells them.
    for command in commands {
      let usage = try runToCompletion([TestPaths.orientctl, "help", command]).stdout
      let entry = usage.components(separatedBy: "\n\n").dropFirst().first ?? ""
      let spelled = Set(
        entry.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }.filter { !global.contains($0) })
      let offered = try Self.bash(TestPaths.orientctl, "\(command) --").subtracting(global)
      #expect(offered == spelled, "\(command): help \(spelled), completion \(offered)")
    }
    #expect(
      try Self.bash(TestPaths.orientctl, "get ") == [
        "--json", "sensor", "device", "orientation", "lock", "allowed", "mode", "hinge", "light", "proximity",
        "heading",
      ])
    #expect(try Self.fish(TestPaths.orientctl, "rotate ") == ["cw", "ccw"])
    #expect(
      try Self.bash(TestPaths.orientctl, "lock ") == [
        "--toggle", "normal", "left-up", "bottom-up", "right-up",
      ])
    #expect(try Self.bash(TestPaths.orientctl, "mode ") == ["tablet", "laptop", "auto"])
  }

  @Test("The zsh completions parse, and name every option of --help")
  func zshCompletions() throws {
    let zsh = try #require(TestPaths.which("zsh"), "zsh is missing: apt-get install zsh")
    for program in [TestPaths.orientd, TestPaths.orientctl] {
      let script = try Self.script(program, "zsh")
      let check = try runToCompletion([zsh, "-n", script])
      #expect(check.status == 0, "\(check.stderr)")
      let text = fileText(script)
      #expect(text.hasPrefix("#compdef "), "\(text.prefix(40))")
      let help = try runToCompletion([program, "--help"]).stdout
      for option in Self.options(inHelp: help) { #expect(text.contains(option), "zsh lacks \(option)") }
    }
  }

  @Test("make install puts the completions where bash-completion, zsh and fish look")
  func installed() throws {
    let destination = try stagedMakeInstall()
    for file in [
      "usr/share/bash-completion/completions/orientd", "usr/share/bash-completion/completions/orientctl",
      "usr/share/zsh/vendor-completions/_orientd", "usr/share/zsh/vendor-completions/_orientctl",
      "usr/share/fish/vendor_completions.d/orientd.fish",
      "usr/share/fish/vendor_completions.d/orientctl.fish",
    ] {
      #expect(!fileText(destination + "/" + file).isEmpty, "\(file)")
    }
    #expect(
      fileText(destination + "/usr/share/bash-completion/completions/orientctl")
        == (try runToCompletion([TestPaths.orientctl, "completion", "bash"])).stdout)
  }
}
