import Glibc
import OrientDaemon

exit(OrientdCommand.main(Array(CommandLine.arguments.dropFirst())))
