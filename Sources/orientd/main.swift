import Glibc
import OrientIO

exit(OrientdCommand.main(Array(CommandLine.arguments.dropFirst())))
