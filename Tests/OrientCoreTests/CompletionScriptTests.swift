import Testing

@testable import OrientCore

@Suite("Shell completion scripts from a completion spec")
struct CompletionScriptTests {
  let spec = CompletionSpec(
    program: "tool",
    options: [
      .init("socket", value: .file, summary: "the socket"),
      .init("help", short: "h", summary: "it's the help [all of it]", isTerminal: true),
    ],
    commands: [
      .init(
        "get", summary: "print: the state", options: [.init("json", summary: "as JSON")],
        arguments: .choices(["a", "b"])),
      .init(
        "hook", summary: "run a command",
        options: [.init("timeout", value: .text(hint: "seconds"), summary: "kill after")], arguments: .command
      ),
    ])

  @Test("bash: one function, registered with complete -F, skipping options' values to find the command")
  func bash() {
    let script = spec.script(for: .bash)
    #expect(script.contains("_tool() {"))
    #expect(script.hasSuffix("complete -F _tool tool\n"))
    #expect(script.contains("--socket|--timeout) (( i++ )) ;;"))
    #expect(script.contains(#"words="--json a b""#))
    #expect(
      script.contains(#"if [[ $cur == -* ]]; then words="--socket --help -h"; else words="get hook"; fi"#))
    #expect(script.contains("--socket) compopt -o filenames"))
  }

  @Test("fish: no file names by default; commands until one is given; values escaped for fish's quotes")
  func fish() {
    let script = spec.script(for: .fish)
    #expect(script.contains("complete -c tool -f\n"))
    #expect(script.contains("complete -c tool -n __fish_use_subcommand -a get -d 'print: the state'"))
    #expect(script.contains("complete -c tool -n '__fish_seen_subcommand_from get' -a 'a b'"))
    #expect(script.contains(#"complete -c tool -s h -l help -d 'it\'s the help [all of it]'"#))
    #expect(script.contains("complete -c tool -l socket -r -F -d 'the socket'"))
  }

  @Test("zsh: #compdef, _arguments specs with brackets and colons escaped, quotes closed and reopened")
  func zsh() {
    let script = spec.script(for: .zsh)
    #expect(script.hasPrefix("#compdef tool\n"))
    #expect(script.contains(#"'(- *)'{--help,-h}'[it'\''s the help \[all of it\]]'"#))
    #expect(script.contains(#"'get:print\: the state'"#))
    #expect(script.contains("get) _arguments '--json[as JSON]' '*: :(a b)' ;;"))
    #expect(script.contains("hook) _arguments '--timeout=[kill after]:seconds: ' '*:: :_normal' ;;"))
  }

  @Test("A program without commands offers its options everywhere")
  func withoutCommands() {
    let flat = CompletionSpec(
      program: "d", options: [.init("mode", value: .choices(["x", "y"]), summary: "m")])
    #expect(flat.script(for: .bash).contains(#"words="--mode""#))
    #expect(
      flat.script(for: .bash).contains(#"--mode) COMPREPLY=($(compgen -W "x y" -- "$cur")); return ;;"#))
    #expect(flat.script(for: .zsh).contains("'--mode=[m]:mode:(x y)'"))
    #expect(flat.script(for: .fish).contains("complete -c d -l mode -x -a 'x y' -d 'm'"))
  }
}
