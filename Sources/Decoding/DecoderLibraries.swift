import CFLAC
import COpusFile
import CVorbisFile

/// The decoding libraries as they are loaded at run time (a distribution's upgrade changes them
/// under the same binary), for `cloudplayerd --version`. libmpg123 names its version only from
/// 1.32 on, newer than Debian 12's: it is left out rather than guessed.
package enum DecoderLibraries {
    package static var versions: [String] {
        [String(cString: opus_get_version_string()),
         "libFLAC " + String(cString: cflac_version_string()),
         String(cString: vorbis_version_string())]
    }
}
