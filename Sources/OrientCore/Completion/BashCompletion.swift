/// A bash completion script (`complete -F`) from a `CompletionSpec`. It needs only bash
/// itself, not the bash-completion package's helpers, which load it by the program's name.
struct BashCompletion {
  let spec: CompletionSpec

  var script: String {
    let function = spec.functionName
    return """
      # bash completion for \(spec.program), written by the program itself from its own
      # option table: regenerate it rather than edit it.
      \(listFunction)\(function)() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev="" command="" words="" i
        (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
        # `--name=value` reaches here as three words: --name, =, value.
        if [[ $prev == "=" ]] && (( COMP_CWORD > 1 )); then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
        [[ $cur == "=" ]] && cur=""
      \(commandSearch)
        case $prev in
      \(valueCases)
        esac
      \(wordChoice)
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
      }
      complete -F \(function) \(spec.program)

      """
  }

  /// The function that completes a comma-separated list, when the spec has one.
  private var listFunction: String {
    guard spec.hasLists else { return "" }
    return """

      # Completes a comma-separated list, each word once: `\(spec.functionName)_list CURRENT ALONE WORDS`,
      # ALONE and WORDS comma-separated; ALONE (`all`) stand only for the whole list.
      \(spec.functionName)_list() {
        local prefix="" words="" word
        # What the list holds before the item being completed, with its comma.
        if [[ $1 == *,* ]]; then prefix=${1%,*},; else words=${2//,/ }; fi
        for word in ${3//,/ }; do
          [[ ,$prefix == *,"$word",* ]] || words+=" $word"
        done
        COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "${1##*,}"))
      }


      """
  }

  /// Every option that takes its value as the next word, of the program or of a command.
  private var valueOptions: [CompletionSpec.Option] {
    var seen: Set<String> = []
    return (spec.options + spec.commands.flatMap(\.options)).filter {
      $0.takesValue && seen.insert($0.name).inserted
    }
  }

  /// Finds the command word, skipping options and the values that follow them.
  private var commandSearch: String {
    guard !spec.commands.isEmpty else { return "" }
    let skipping = valueOptions.map(\.long).joined(separator: "|")
    let skip = skipping.isEmpty ? "" : "      \(skipping)) (( i++ )) ;;\n"
    return """
        local at=0
        for (( i = 1; i < COMP_CWORD; i++ )); do
          case ${COMP_WORDS[i]} in
      \(skip)      -*) ;;
            *) command=${COMP_WORDS[i]}; at=$i; break ;;
          esac
        done
      """
  }

  /// After an option that takes a value: that value's completions, and nothing else.
  private var valueCases: String {
    valueOptions.map { option in
      "    \(option.long)) \(reply(for: option.value)); return ;;"
    }.joined(separator: "\n")
  }

  /// What `$words` holds for the word being completed.
  private var wordChoice: String {
    let globalWords = Self.words(spec.options)
    guard !spec.commands.isEmpty else {
      return "  words=\"\(globalWords)\""
    }
    let commandNames = spec.commands.map(\.name).joined(separator: " ")
    var cases = [
      """
          "")
            if [[ $cur == -* ]]; then words="\(globalWords)"; else words="\(commandNames)"; fi ;;
      """
    ]
    for command in spec.commands {
      let own = Self.words(command.options)
      switch command.arguments {
      case .command:
        // Options until `--` or the command's program; then the program, then its arguments.
        cases.append(
          """
              \(command.name))
                local j program=0
                for (( j = at + 1; j < COMP_CWORD; j++ )); do
                  case ${COMP_WORDS[j]} in
                    --) program=$(( j + 1 )); break ;;
          \(Self.valueSkip(command.options))          -*) ;;
                    *) program=$j; break ;;
                  esac
                done
                if (( program > 0 && COMP_CWORD > program )); then
                  compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return
                elif (( program > 0 )) || [[ $cur != -* ]]; then
                  compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -c -- "$cur")); return
                fi
                words="\(own) \(globalWords)" ;;
          """)
      case .list(let words, let alone):
        // With nothing typed yet, the command's options are offered beside the list's words.
        let call = listCall(words, alone: command.options.map(\.long) + alone)
        cases.append(
          """
              \(command.name))
                if [[ $cur == -* ]]; then words="\(own) \(globalWords)"; else \(call); return; fi ;;
          """)
      default:
        let arguments = Self.argumentWords(command.arguments)
        cases.append(
          """
              \(command.name))
                if [[ $cur == -* ]]; then words="\(own) \(globalWords)"; else words="\(own) \(arguments)"; fi ;;
          """)
      }
    }
    return "  case $command in\n" + cases.joined(separator: "\n") + "\n  esac"
  }

  /// The case arms that skip a command's own options' values.
  private static func valueSkip(_ options: [CompletionSpec.Option]) -> String {
    let names = options.filter(\.takesValue).map(\.long)
    guard !names.isEmpty else { return "" }
    return "          \(names.joined(separator: "|"))) (( j++ )) ;;\n"
  }

  /// The options as words: long forms, then short ones.
  private static func words(_ options: [CompletionSpec.Option]) -> String {
    (options.map(\.long) + options.compactMap { $0.short.map { "-\($0)" } }).joined(separator: " ")
  }

  private static func argumentWords(_ value: CompletionSpec.Value) -> String {
    if case .choices(let choices) = value { return choices.joined(separator: " ") }
    return ""
  }

  /// The call of the list function that completes `$cur` as a list of `words`.
  private func listCall(_ words: [String], alone: [String]) -> String {
    "\(spec.functionName)_list \"$cur\" \"\(alone.joined(separator: ","))\" \"\(words.joined(separator: ","))\""
  }

  /// The statement that fills COMPREPLY for a value.
  private func reply(for value: CompletionSpec.Value) -> String {
    switch value {
    case .none, .text: return "COMPREPLY=()"
    case .list(let words, let alone): return listCall(words, alone: alone)
    case .choices(let choices):
      return "COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\"))"
    case .file: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
    case .directory: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
    case .command: return "COMPREPLY=($(compgen -c -- \"$cur\"))"
    case .group: return "COMPREPLY=($(compgen -g -- \"$cur\"))"
    }
  }
}
