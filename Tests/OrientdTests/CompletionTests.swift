import Foundation
import Testing

/// The shell completions the programs print for `make install`, run in real shells and held
/// against `--help`.
@Suite("Shell completions agree with --help", .scratch)
struct CompletionTests {
  /// The completion script `program` prints for `shell`, written to a file.
  static func script(_ program: String, _ shell: String) throws -> String {
    let result = try runToCompletion(printing(program, shell))
    try #require(result.status == 0, "\(printing(program, shell)): \(result.stderr)")
    let path = try Scratch.current().makeDirectory("completion") + "/" + shell
    try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// How `shell` loads a completion script without make install, as the manual pages, the
  /// help and the README give it; `printing` is the command that prints the script.
  static func idiom(_ shell: String, printing: String) -> String {
    shell == "fish" ? "\(printing) | source" : "source <(\(printing))"
  }

  /// The command line that prints `program`'s completion script for `shell`.
  static func printing(_ program: String, _ shell: String) -> [String] {
    program == TestPaths.orientd ? [program, "--completion", shell] : [program, "completion", shell]
  }

  /// What bash offers for the words of `line` (the last one being completed), the script
  /// loaded as the manual page says to without make install: `source <(orientctl completion bash)`.
  static func bash(_ program: String, _ line: String) throws -> Set<String> {
    let bash = try #require(TestPaths.which("bash"))
    let name = URL(fileURLWithPath: program).lastPathComponent
    let result = try runToCompletion([
      bash, "--norc", "--noprofile", "-c",
      """
      \(idiom("bash", printing: #""$1" $4 bash"#)) || exit 90
      read -r -a COMP_WORDS <<< "$2"
      case "$2" in *" ") COMP_WORDS+=(""); esac
      COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
      function=$(complete -p "$3" | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
      [[ -n $function ]] || exit 91
      "$function" "$3" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf '%s\\n' "${COMPREPLY[@]}"
      """,
      "bash", program, "\(name) \(line)", name, printing(program, "bash")[1],
    ])
    try #require(result.status == 0, "bash: \(result.stderr)")
    return Set(completeLines(result.stdout))
  }

  /// What fish offers for `line`, without the descriptions, the script loaded as the manual
  /// page says to: `orientctl completion fish | source`.
  static func fish(_ program: String, _ line: String) throws -> Set<String> {
    let fish = try #require(TestPaths.which("fish"), "fish is missing: apt-get install fish")
    let name = URL(fileURLWithPath: program).lastPathComponent
    var environment = try Scratch.current().environment
    environment["HOME"] = try Scratch.current().makeDirectory("home")
    environment["XDG_CONFIG_HOME"] = environment["HOME"]
    let result = try runToCompletion(
      [
        fish, "--no-config", "-c",
        "\(idiom("fish", printing: "$argv[1] $argv[3] fish")); and complete -C $argv[2]", program,
        "\(name) \(line)", printing(program, "fish")[1],
      ],
      environment: environment)
    try #require(result.status == 0, "fish: \(result.stderr)")
    return Set(completeLines(result.stdout).map { String($0.split(separator: "\t").first ?? "") })
  }

  /// How an interactive zsh gets the completion: sourced, as the manual page says to without
  /// make install, or as make install puts it, a `_orientctl` file in a directory of $fpath
  /// that compinit finds by its `#compdef` line and autoloads.
  enum ZshSetup {
    case sourced
    case autoloaded
  }

  /// What an interactive zsh offers for each of `lines`, and what it printed while it loaded the
  /// completion (the sourced script's errors land there).
  ///
  /// zsh completes only inside the line editor, so a non-interactive zsh drives an interactive
  /// `zsh -f -i` on a pseudo-terminal through its zpty module. The interactive shell runs
  /// compinit, loads the completion, and replaces compadd by a function that prints each match
  /// (with the part of the word that stays before it) instead of adding it; a widget bound to
  /// Tab completes, then prints a marker. The driver types each line and Tab, and reads until
  /// the marker; it prints all it reads, so a failure shows it.
  static func zsh(_ program: String, _ lines: [String], setup: ZshSetup) throws -> (
    offered: [Set<String>], loading: String
  ) {
    let zsh = try #require(TestPaths.which("zsh"), "zsh is missing: apt-get install zsh")
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory("zsh")
    let name = URL(fileURLWithPath: program).lastPathComponent
    let load: String
    switch setup {
    case .sourced:
      load = idiom("zsh", printing: printing(program, "zsh").map(quoted).joined(separator: " "))
    case .autoloaded:
      let functions = directory + "/functions"
      try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: false)
      let result = try runToCompletion(printing(program, "zsh"))
      try #require(result.status == 0, "\(result.stderr)")
      try result.stdout.write(toFile: functions + "/_" + name, atomically: true, encoding: .utf8)
      load = "fpath=(\(quoted(functions)) $fpath)"
    }
    // Markers the interactive shell prints from the set-up file and the widget, never typed:
    // the echo of what the driver types cannot contain them.
    let setupFile = directory + "/setup.zsh"
    try """
    PS1='> ' RPS1=''
    # For the driver, which waits for this shell to be gone before it ends.
    print -r -- $$ > shell.pid
    zmodload zsh/zutil
    print -r -- '<load''ing>'
    \(setup == .autoloaded ? load : "")
    autoload -U compinit && compinit -u -D
    \(setup == .sourced ? load : "")
    print -r -- '<load''ed>'
    compadd() {
      # The completion system's own filtering calls: leave them alone.
      if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return; fi
      local -a __matches
      local -A __options
      zparseopts -A __options -E P: p:
      builtin compadd -A __matches "$@"
      local __match
      for __match in $__matches; do
        print -r -- "<offered>$IPREFIX${__options[-P]}${__options[-p]}$__match"
      done
      (( $#__matches ))
    }
    zle -C capture-complete complete-word _main_complete
    capture() { zle capture-complete; print -r -- '<comple''ted>'; }
    zle -N capture
    bindkey '^I' capture
    print -r -- '<rea''dy>'
    """.write(toFile: setupFile, atomically: true, encoding: .utf8)
    let driverFile = directory + "/driver.zsh"
    try """
    zmodload zsh/zpty || exit 90
    setup=$1; shift
    # In the scratch directory: file-name completions, if any, list nothing of the host.
    cd -- ${setup:h} || exit 90
    # Prints what the shell prints, until a line holds $1.
    await() {
      local line
      while zpty -r shell line; do
        print -rn -- "$line"
        [[ $line == *"$1"* ]] && return 0
      done
      return 1
    }
    # Named by a path in the scratch directory, so that a shell left behind is found and killed.
    zpty shell exec -a ${(q)SHELL_NAME} zsh -f -i
    zpty -w shell "source ${(q)setup}"
    await '<ready>' || exit 91
    for line in "$@"; do
      zpty -w -n shell "$line"$'\\t'
      await '<completed>' || exit 92
      # Ctrl-U: the next line starts empty.
      zpty -w -n shell $'\\C-u'
    done
    # zpty -d only sends SIGHUP: the shell is waited for, so that none is left when the test
    # looks for processes it started (a zombie's command line is empty).
    pid=$(<shell.pid)
    zpty -d shell
    for _ in {1..3000}; do
      # /proc's files have no size: what matters is whether the command line reads empty.
      [[ -n $pid && -n $(</proc/$pid/cmdline) ]] 2>/dev/null || exit 0
      sleep 0.01
    done
    exit 93
    """.write(toFile: driverFile, atomically: true, encoding: .utf8)
    var environment = scratch.environment
    environment["HOME"] = directory
    environment["TERM"] = "vt100"
    environment["SHELL_NAME"] = directory + "/zsh"
    let driver = try TestProcess(
      [zsh, "-f", driverFile, setupFile] + lines.map { "\(name) \($0)" }, environment: environment)
    let status = driver.waitForExit(timeout: patience)
    let output = driver.stdout.replacingOccurrences(of: "\r", with: "")
    try #require(
      status == 0, "zsh driver: status \(String(describing: status)), read:\n\(output)\n\(driver.stderr)")
    let loading = output.components(separatedBy: "<loading>").dropFirst().first?.components(
      separatedBy: "<loaded>"
    ).first
    let completions = (output.components(separatedBy: "<ready>").last ?? "").components(
      separatedBy: "<completed>"
    ).dropLast()
    try #require(completions.count == lines.count, "\(output)")
    let offered = completions.map { text in
      Set(
        text.split(separator: "\n").compactMap { line in
          line.range(of: "<offered>").map { String(line[$0.upperBound...]) }
        })
    }
    return (offered, try #require(loading, "\(output)"))
  }

  /// `text` in single quotes, for a shell.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
        "heading", "suggestion",
      ])
    #expect(try Self.fish(TestPaths.orientctl, "rotate ") == ["cw", "ccw"])
    #expect(
      try Self.bash(TestPaths.orientctl, "lock ") == [
        "--toggle", "normal", "left-up", "bottom-up", "right-up",
      ])
    #expect(try Self.bash(TestPaths.orientctl, "mode ") == ["tablet", "laptop", "auto"])
  }

  /// What `allow` and `--supports` take: orientations, comma-separated, each once.
  static let orientations: Set<String> = ["normal", "left-up", "bottom-up", "right-up"]

  @Test("bash and fish complete a comma-separated list item by item: allow normal, and --supports")
  func listsInBashAndFish() throws {
    let orientctl = TestPaths.orientctl
    for shell in [Self.bash, Self.fish] {
      #expect(try shell(orientctl, "allow ") == Self.orientations.union(["all"]))
      #expect(
        try shell(orientctl, "allow normal,") == ["normal,left-up", "normal,bottom-up", "normal,right-up"])
      #expect(
        try shell(orientctl, "allow normal,bottom-up,") == [
          "normal,bottom-up,left-up", "normal,bottom-up,right-up",
        ])
      #expect(try shell(orientctl, "allow normal,r") == ["normal,right-up"])
      #expect(try shell(orientctl, "monitor --supports ") == Self.orientations)
      #expect(
        try shell(orientctl, "hook --supports left-up,") == [
          "left-up,normal", "left-up,bottom-up", "left-up,right-up",
        ])
      // orientd's --allowed takes the same list.
      #expect(
        try shell(TestPaths.orientd, "--allowed right-up,") == [
          "right-up,normal", "right-up,left-up", "right-up,bottom-up",
        ])
    }
    #expect(
      try Self.fish(orientctl, "monitor --supports=left-up,") == [
        "--supports=left-up,normal", "--supports=left-up,bottom-up", "--supports=left-up,right-up",
      ])
  }

  @Test("zsh, the script sourced (source <(orientctl completion zsh)), loads without an error and completes")
  func zshSourced() throws {
    let lines = [
      "g", "allow ", "allow normal,", "monitor --supports ", "monitor --supports=left-up,", "lock ",
    ]
    let (offered, loading) = try Self.zsh(TestPaths.orientctl, lines, setup: .sourced)
    // Before, sourcing ran the function at once: "_arguments:comparguments:327: can only be
    // called from completion function", and zsh completed file names.
    #expect(loading.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(loading)")
    #expect(offered[0] == ["get"])
    #expect(offered[1] == Self.orientations.union(["all"]))
    #expect(offered[2] == ["normal,left-up", "normal,bottom-up", "normal,right-up"])
    #expect(offered[3] == Self.orientations)
    #expect(
      offered[4] == [
        "--supports=left-up,normal", "--supports=left-up,bottom-up", "--supports=left-up,right-up",
      ])
    #expect(offered[5] == Self.orientations)
    let daemon = try Self.zsh(TestPaths.orientd, ["--mode ", "--allowed normal,"], setup: .sourced)
    #expect(daemon.loading.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(daemon.loading)")
    #expect(daemon.offered[0] == ["auto", "poll", "buffer"])
    #expect(daemon.offered[1] == ["normal,left-up", "normal,bottom-up", "normal,right-up"])
  }

  @Test("zsh, the script autoloaded from $fpath as make install puts it, completes")
  func zshAutoloaded() throws {
    let (offered, loading) = try Self.zsh(
      TestPaths.orientctl, ["g", "allow normal,", "monitor --supports ", "rotate "], setup: .autoloaded)
    #expect(loading.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(loading)")
    #expect(offered[0] == ["get"])
    #expect(offered[1] == ["normal,left-up", "normal,bottom-up", "normal,right-up"])
    #expect(offered[2] == Self.orientations)
    #expect(offered[3] == ["cw", "ccw"])
    let daemon = try Self.zsh(TestPaths.orientd, ["--dbus "], setup: .autoloaded)
    #expect(daemon.offered == [["system", "session", "off"]])
  }

  @Test(
    "The manual pages, orientctl help and the README give each shell's way to load the completions without make install"
  )
  func idiomsDocumented() throws {
    let orientctlPage = try ManPageTests.rendered("orientctl.1").text
    let orientdPage = try ManPageTests.rendered("orientd.8").text
    let help = try runToCompletion([TestPaths.orientctl, "help", "completion"]).stdout
    let readme = ReadmeTests.readme
    for shell in ["bash", "zsh", "fish"] {
      // The very lines the helpers above run, with the programs' names.
      let orientctl = Self.idiom(shell, printing: "orientctl completion \(shell)")
      #expect(orientctlPage.contains(orientctl), "orientctl.1 lacks \(orientctl)")
      #expect(help.contains(orientctl), "orientctl help completion lacks \(orientctl)")
      #expect(readme.contains("`\(orientctl)`"), "README.md lacks \(orientctl)")
      let orientd = Self.idiom(shell, printing: "orientd --completion \(shell)")
      #expect(orientdPage.contains(orientd), "orientd.8 lacks \(orientd)")
    }
    // zsh's completion system must be loaded before the script is sourced.
    for text in [orientctlPage, orientdPage, help] { #expect(text.contains("compinit")) }
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
