/// A zsh completion function (`#compdef`, `_arguments`) from a `CompletionSpec`.
struct ZshCompletion {
  let spec: CompletionSpec

  var script: String {
    let function = spec.functionName
    var text = """
      #compdef \(spec.program)
      # zsh completion for \(spec.program), written by the program itself from its own option
      # table: regenerate it rather than edit it. It works autoloaded from a directory of $fpath
      # (as _\(spec.program)) and sourced after compinit.

      \(listFunction)\(function)() {

      """
    if spec.commands.isEmpty {
      text += "  _arguments -s \\\n" + specs(spec.options).map { "    \($0)" }.joined(separator: " \\\n")
      text += "\n}\n\n" + ending
      return text
    }
    let commands = spec.commands.map {
      "    \(Self.quoted($0.name + ":" + Self.escaped($0.summary, colon: true)))"
    }
    text += "  local -a commands\n  commands=(\n" + commands.joined(separator: "\n") + "\n  )\n"
    text += "  local curcontext=$curcontext state line\n"
    text +=
      "  _arguments -C \\\n"
      + (specs(spec.options) + ["'1: :->command'", "'*:: :->argument'"]).map { "    \($0)" }.joined(
        separator: " \\\n") + "\n"
    text += "  case $state in\n"
    text += "    command) _describe -t commands '\(spec.program) command' commands ;;\n"
    text += "    argument)\n      case $words[1] in\n"
    for command in spec.commands {
      var specs = self.specs(command.options)
      switch command.arguments {
      case .none, .text: break
      case .choices(let words): specs.append("'*: :(\(words.joined(separator: " ")))'")
      case .list(let words, let alone): specs.append(Self.quoted("1: :" + listCall(words, alone: alone)))
      case .file: specs.append("'*: :_files'")
      case .directory: specs.append("'*: :_directories'")
      case .group: specs.append("'*: :_groups'")
      case .command: specs.append("'*:: :_normal'")
      }
      let arguments = specs.isEmpty ? "_message 'no arguments'" : "_arguments " + specs.joined(separator: " ")
      text += "        \(command.name)) \(arguments) ;;\n"
    }
    text += "      esac ;;\n  esac\n}\n\n" + ending
    return text
  }

  /// The function that completes a comma-separated list, when the spec has one. `_arguments`
  /// calls it with compadd's options (a group, a description) first.
  private var listFunction: String {
    guard spec.hasLists else { return "" }
    return """
      # Completes a comma-separated list, each word once: `\(spec.functionName)_list ALONE WORDS` after
      # compadd's options, ALONE and WORDS comma-separated; ALONE (`all`) stand only for the
      # whole list.
      \(spec.functionName)_list() {
        local -a alone words given
        alone=(${(s:,:)@[-2]})
        words=(${(s:,:)@[-1]})
        if compset -P '*,'; then
          # The words given before, without an option's `--name=`.
          given=(${(s:,:)${IPREFIX##*=}})
          compadd "${@[1,-3]}" -- ${words:|given}
        else
          compadd "${@[1,-3]}" -- $alone $words
        fi
      }


      """
  }

  /// The action that completes a list of `words`.
  private func listCall(_ words: [String], alone: [String]) -> String {
    "\(spec.functionName)_list \"\(alone.joined(separator: ","))\" \(words.joined(separator: ","))"
  }

  /// How the script ends: autoloaded (compinit found it in $fpath by its `#compdef` line), the
  /// file is the function's body, called to complete, so it calls the function it has just
  /// defined; sourced, it registers the function instead. Calling it when sourced would fail:
  /// `_arguments` can only be called from a completion function.
  private var ending: String {
    let function = spec.functionName
    return """
      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        # Autoloaded by compinit from $fpath: this file is the function's body; complete now.
        \(function) "$@"
      elif (( $+functions[compdef] )); then
        # Sourced: have the completion system call the function for \(spec.program).
        compdef \(function) \(spec.program)
      else
        print -u2 "\(spec.program): zsh completion needs compinit first: autoload -U compinit && compinit"
      fi

      """
  }

  /// `_arguments` specs for `options`: `--name=[summary]:hint:action`, the short form beside.
  private func specs(_ options: [CompletionSpec.Option]) -> [String] {
    options.map { option in
      let summary = "[" + Self.escaped(option.summary, colon: false) + "]"
      let value: String
      switch option.value {
      case .none: value = ""
      case .choices(let words): value = ":\(option.name):(\(words.joined(separator: " ")))"
      case .list(let words, let alone): value = ":\(option.name):" + listCall(words, alone: alone)
      case .file: value = ":file:_files"
      case .directory: value = ":directory:_directories"
      case .group: value = ":group:_groups"
      case .command: value = ":command:_command_names -e"
      case .text(let hint): value = ":\(Self.escaped(hint, colon: true)): "
      }
      let equals = option.takesValue ? "=" : ""
      let exclusion = option.isTerminal ? "'(- *)'" : ""
      if let short = option.short {
        let names = "{--\(option.name)\(equals),-\(short)\(option.takesValue ? "+" : "")}"
        return (exclusion.isEmpty ? "" : exclusion) + names + Self.quoted(summary + value)
      }
      return exclusion + Self.quoted("--\(option.name)\(equals)" + summary + value)
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
