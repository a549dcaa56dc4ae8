/// MediaGraph's own version, written once here: `mediagraph --version` prints it, with the
/// versions of the libraries it runs with, for bug reports.
public enum MediaGraphVersion {
    public static let string = "0.1.0"
}
