import Glibc
import OrientClient

exit(OrientctlCommand.main(Array(CommandLine.arguments.dropFirst())))
