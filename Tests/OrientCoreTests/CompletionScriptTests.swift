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

  /// A spec with lists: an option's value and a command's argument.
  let lists = CompletionSpec(
    program: "tool",
    options: [.init("only", value: .list(["a", "b", "c"], alone: []), summary: "only these")],
    commands: [.init("allow", summary: "allow these", arguments: .list(["a", "b", "c"], alone: ["all"]))])

  @Test("Each shell's script defines a list function only when the spec has a list, and calls it for each")
  func listFunctions() {
    #expect(!spec.script(for: .bash).contains("_tool_list"))
    #expect(!spec.script(for: .zsh).contains("_tool_list"))
    #expect(!spec.script(for: .fish).contains("__tool_list"))
    let bash = lists.script(for: .bash)
    #expect(bash.contains("_tool_list() {"))
    #expect(bash.contains(#"--only) _tool_list "$cur" "" "a,b,c"; return ;;"#))
    #expect(bash.contains(#"else _tool_list "$cur" "all" "a,b,c"; return; fi ;;"#))
    let zsh = lists.script(for: .zsh)
    #expect(zsh.contains("_tool_list() {"))
    #expect(zsh.contains(#"'--only=[only these]:only:_tool_list "" a,b,c'"#))
    #expect(zsh.contains(#"allow) _arguments '1: :_tool_list "all" a,b,c' ;;"#))
    let fish = lists.script(for: .fish)
    #expect(fish.contains("function __tool_list\n"))
    #expect(fish.contains(#"complete -c tool -l only -x -a '(__tool_list "" a,b,c)' -d 'only these'"#))
    #expect(
      fish.contains(
        #"complete -c tool -n '__fish_seen_subcommand_from allow' -a '(__tool_list "all" a,b,c)'"#))
  }

  @Test("zsh: the script calls its function when autoloaded, and registers it with compdef when sourced")
  func zshEnding() {
    for (spec, name) in [(spec, "tool"), (CompletionSpec(program: "d", options: []), "d")] {
      let script = spec.script(for: .zsh)
      #expect(script.contains("if [[ $zsh_eval_context[-1] == loadautofunc ]]; then"))
      #expect(script.contains("  _\(name) \"$@\"\n"))
      #expect(script.contains("  compdef _\(name) \(name)\n"))
      // Never the function called outright, which fails when sourced.
      #expect(!script.contains("}\n\n_\(name) \"$@\""))
    }
  }

  @Test("A command's synopsis names every option, with its value, then its arguments")
  func synopsis() {
    let command = CompletionSpec.Command(
      "hook", summary: "",
      options: [
        .init("timeout", value: .text(hint: "seconds"), summary: ""), .init("oneshot", summary: ""),
        .init("supports", value: .list(["a"], alone: []), summary: ""),
      ], arguments: .command, operands: "COMMAND...")
    #expect(command.synopsis == "hook [--timeout SECONDS] [--oneshot] [--supports LIST] COMMAND...")
    #expect(
      CompletionSpec.Command("rotate", summary: "", arguments: .choices(["cw", "ccw"])).synopsis
        == "rotate cw|ccw")
    #expect(CompletionSpec.Command("unlock", summary: "").synopsis == "unlock")
  }
}
