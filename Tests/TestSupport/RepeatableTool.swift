/// The tools that make fixtures, in their repeatable modes, so a fixture is the same bytes on every
/// run — a test whose input changes between runs fails by chance. sox seeds its noise and dither
/// with a fixed number (`-R`); an Ogg stream gets a fixed serial number instead of a random one
/// (opusenc and oggenc `--serial`, `flac --ogg` `--serial-number`) unless one is given (the links
/// of a chained file need serials of their own). lame, and flac without Ogg, are repeatable as they are.
public enum RepeatableTool {
    public static func arguments(for tool: String, _ arguments: [String]) -> [String] {
        switch tool {
        case "sox":
            ["-R"] + arguments
        case "opusenc", "oggenc":
            arguments.contains("--serial") ? arguments : ["--serial", "1"] + arguments
        case "flac" where arguments.contains("--ogg"):
            arguments.contains { $0.hasPrefix("--serial-number") } ? arguments : ["--serial-number=1"] + arguments
        default:
            arguments
        }
    }
}
