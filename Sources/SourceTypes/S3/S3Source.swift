import Config
import FoundationEssentials
import Loader
import Model

/// `type = "s3"`: a bucket of an S3-compatible store (AWS, Backblaze B2, Wasabi, MinIO,
/// Cloudflare R2), scanned with `ListObjectsV2` one folder (`/`-delimited prefix) at a time and
/// played from with signed ranged GETs. Its tracks are `cloudplayer://NAME/KEY`, the object's
/// key as it is: a key is no path, and `a/../b.mp3` is not `b.mp3`.
package struct S3Source: SourceType, Equatable {
    package static let typeName = "s3"
    static let keys = Set(["endpoint", "bucket", "prefix", "region", "access_key_id", "profile", "path_style", "tls_ca_file"])
        .union(Secret.Origin.keys(for: "secret_access_key")).union(Secret.Origin.keys(for: "session_token"))

    package let name: String
    /// Where the bucket is: its URL for path-style addressing, its host for virtual-host style.
    package var endpoint: URL
    package var bucket: String
    /// The part of the bucket that is the library: empty, or ending in `/`.
    package var prefix: String
    package var region: String
    package var credentials: S3CredentialSource
    /// `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, moto, and
    /// other servers without a name per bucket).
    package var pathStyle: Bool
    package var tlsCAFile: String?
    /// Objects per listing page (`max-keys`): S3's 1000, smaller in tests of paging.
    package var pageSize = 1000

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> S3Source {
        try section.allow(keys)
        let bucket = try section.required("bucket", "the bucket's name")
        guard !bucket.value.isEmpty, !bucket.value.contains("/") else {
            throw section.error("bucket", line: bucket.line, "expected a bucket name, without slashes")
        }
        let region = try section.string("region")?.value ?? "us-east-1"
        let endpoint = try section.httpURL("endpoint") ?? URL(string: "https://s3.\(region).amazonaws.com")!
        guard endpoint.query == nil, endpoint.path.isEmpty || endpoint.path == "/" else {
            throw section.error("endpoint", "expected the server's address alone (https://host[:port]), without a path")
        }
        var prefix = try section.string("prefix")?.value ?? ""
        while prefix.hasPrefix("/") { prefix.removeFirst() }
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        let pathStyle = try section.boolean("path_style")?.value ?? false
        let keyID = try section.string("access_key_id")
        let secret = try section.secret("secret_access_key")
        let token = try section.secret("session_token")
        let profile = try section.string("profile")
        let credentials: S3CredentialSource
        if let keyID {
            guard let secret else { throw section.error("secret_access_key", line: keyID.line, "access_key_id needs a secret_access_key (_file or _command)") }
            guard profile == nil else { throw section.error("profile", line: profile?.line, "give either access_key_id or profile") }
            credentials = .configured(accessKeyID: keyID.value, secret: secret, sessionToken: token)
        } else if secret != nil || token != nil {
            throw section.error("access_key_id", "missing (the secret access key needs its key id)")
        } else if let profile {
            credentials = .profile(profile.value)
        } else {
            credentials = .environment
        }
        return S3Source(name: section.name, endpoint: endpoint, bucket: bucket.value, prefix: prefix, region: region,
                        credentials: credentials, pathStyle: pathStyle, tlsCAFile: try section.path("tls_ca_file")?.path)
    }

    init(name: String, endpoint: URL, bucket: String, prefix: String, region: String, credentials: S3CredentialSource,
         pathStyle: Bool, tlsCAFile: String?) {
        self.name = name
        self.endpoint = endpoint
        self.bucket = bucket
        self.prefix = prefix
        self.region = region
        self.credentials = credentials
        self.pathStyle = pathStyle
        self.tlsCAFile = tlsCAFile
    }

    /// Its tracks have no URL of their own: a signed request is made for each.
    package var root: URL? { nil }

    /// `s3://BUCKET/PREFIX at ENDPOINT`: never a key.
    package var shownLocation: String {
        "s3://\(bucket)/\(prefix) at \(URLOrigin(endpoint)?.description ?? endpoint.absoluteString)"
    }

    package var isScannable: Bool { true }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let bucket = try S3Bucket(source: self, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: S3Storage(bucket: bucket, prefix: prefix, pageSize: pageSize, shown: shownLocation), input: .remote(S3Input(bucket: bucket)))
    }
}
