/// A zsh completion function (`#compdef`, `_arguments`) from a `CompletionSpec`.
struct ZshCompletion {
  let spec: CompletionSpec

  var script: String {
    let function = spec.functionName
    var text = """
      #compdef \(spec.program)
      # zsh completion for \(spec.program), written by the program itself from its own option
      # table: regenerate it rather than edit it.

      \(function)() {

      """
    if spec.commands.isEmpty {
      text += "  _arguments -s \\\n" + Self.specs(spec.options).map { "    \($0)" }.joined(separator: " \\\n")
      text += "\n}\n\n\(function) \"$@\"\n"
      return text
    }
    let commands = spec.commands.map {
      "    \(Self.quoted($0.name + ":" + Self.escaped($0.summary, colon: true)))"
    }
    text += "  local -a commands\n  commands=(\n" + commands.joined(separator: "\n") + "\n  )\n"
    text += "  local curcontext=$curcontext state line\n"
    text +=
      "  _arguments -C \\\n"
      + (Self.specs(spec.options) + ["'1: :->command'", "'*:: :->argument'"]).map { "    \($0)" }.joined(
        separator: " \\\n") + "\n"
    text += "  case $state in\n"
    text += "    command) _describe -t commands '\(spec.program) command' commands ;;\n"
    text += "    argument)\n      case $words[1] in\n"
    for command in spec.commands {
      var specs = Self.specs(command.options)
      switch command.arguments {
      case .none, .text: break
      case .choices(let words): specs.append("'*: :(\(words.joined(separator: " ")))'")
      case .file: specs.append("'*: :_files'")
      case .directory: specs.append("'*: :_directories'")
      case .group: specs.append("'*: :_groups'")
      case .command: specs.append("'*:: :_normal'")
      }
      let arguments = specs.isEmpty ? "_message 'no arguments'" : "_arguments " + specs.joined(separator: " ")
      text += "        \(command.name)) \(arguments) ;;\n"
    }
    text += "      esac ;;\n  esac\n}\n\n\(function) \"$@\"\n"
    return text
  }

  /// `_arguments` specs for `options`: `--name=[summary]:hint:action`, the short form beside.
  private static func specs(_ options: [CompletionSpec.Option]) -> [String] {
    options.map { option in
      let summary = "[" + escaped(option.summary, colon: false) + "]"
      let value: String
      switch option.value {
      case .none: value = ""
      case .choices(let words): value = ":\(option.name):(\(words.joined(separator: " ")))"
      case .file: value = ":file:_files"
      case .directory: value = ":directory:_directories"
      case .group: value = ":group:_groups"
      case .command: value = ":command:_command_names -e"
      case .text(let hint): value = ":\(escaped(hint, colon: true)): "
      }
      let equals = option.takesValue ? "=" : ""
      let exclusion = option.isTerminal ? "'(- *)'" : ""
      if let short = option.short {
        let names = "{--\(option.name)\(equals),-\(short)\(option.takesValue ? "+" : "")}"
        return (exclusion.isEmpty ? "" : exclusion) + names + quoted(summary + value)
      }
      return exclusion + quoted("--\(option.name)\(equals)" + summary + value)
    }
  }

  /// `text` for a spec: brackets, and colons where they separate fields, escaped.
  static func escaped(_ text: String, colon: Bool) -> String {
    text.replacingCharacters { character in
      character == "\\" || character == "[" || character == "]" || (colon && character == ":")
        ? "\\\(character)" : nil
    }
  }

  /// `text` in single quotes, as zsh reads them.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingCharacters { $0 == "'" ? "'\\''" : nil } + "'"
  }
}
