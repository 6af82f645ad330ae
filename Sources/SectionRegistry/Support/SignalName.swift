#if canImport(Glibc)
import Glibc
#endif

/// `SIGTERM`, `SIGINT`, ...: the name a log line or a ``StopReason`` gives
/// `signalNumber`.
func signalName(_ signalNumber: Int32) -> String {
    switch signalNumber {
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
    case SIGHUP: "SIGHUP"
    case SIGUSR1: "SIGUSR1"
    case SIGUSR2: "SIGUSR2"
    default: "signal \(signalNumber)"
    }
}
