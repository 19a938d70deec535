import Foundation
import Model
import Parsers
import S3Answers
import Testing

/// S3's XML as AWS, MinIO and others write it: pages with and without the 2006-03-01 namespace,
/// keys kept as they are (spaces at the ends, `..`, entities), error bodies; a page cut short is
/// an error, never a shorter listing.
@Suite struct S3AnswerParserTests {
    @Test("a ListObjectsV2 page: objects with size, ETag and time, common prefixes, the continuation token")
    func page() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>music</Name><Prefix>a/</Prefix>\
            <KeyCount>3</KeyCount><MaxKeys>2</MaxKeys><Delimiter>/</Delimiter><IsTruncated>true</IsTruncated>\
            <Contents><Key>a/ x &amp; y.mp3 </Key><LastModified>2026-11-23T12:00:01.000Z</LastModified>\
            <ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>1234</Size><StorageClass>STANDARD</StorageClass></Contents>\
            <Contents><Key>a/../b.mp3</Key><LastModified>2026-11-23T12:00:02Z</LastModified><ETag>"e-2"</ETag><Size>0</Size></Contents>\
            <CommonPrefixes><Prefix>a/Albums/</Prefix></CommonPrefixes><CommonPrefixes><Prefix>a//</Prefix></CommonPrefixes>\
            <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken></ListBucketResult>
            """
        let page = try S3AnswerParser.page(Data(xml.utf8))
        #expect(page.objects.map(\.key) == ["a/ x & y.mp3 ", "a/../b.mp3"])
        #expect(page.objects.map(\.size) == [1234, 0])
        #expect(page.objects.first?.etag == "\"9b2cf535f27731c974343645a3985328\"")
        #expect(page.objects.first?.lastModified == Date(timeIntervalSince1970: 1_795_435_201))
        #expect(page.objects.last?.lastModified == Date(timeIntervalSince1970: 1_795_435_202))
        #expect(page.folders == ["a/Albums/", "a//"])
        #expect(page.isTruncated && page.nextContinuationToken == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")

        let plain = try S3AnswerParser.page(Data("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>".utf8))
        #expect(plain.objects.isEmpty && plain.folders.isEmpty && !plain.isTruncated && plain.nextContinuationToken == nil)
    }

    @Test("a page cut short, another document, or a DOCTYPE is an error",
          arguments: [
            "<ListBucketResult><Contents><Key>a.mp3</Key><Size>1</Size></Contents>",
            "<Error><Code>NoSuchBucket</Code></Error>",
            "<!DOCTYPE x [<!ENTITY e \"e\">]><ListBucketResult></ListBucketResult>",
            "not xml at all",
          ])
    func broken(_ text: String) {
        #expect(throws: LoaderError.self) { try S3AnswerParser.page(Data(text.utf8)) }
    }

    @Test("an error body: code, message, region, server time, endpoint; anything else is no error body")
    func failure() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>AuthorizationHeaderMalformed</Code><Message>the region 'us-east-1' is wrong; expecting 'eu-west-3'</Message>\
            <Region>eu-west-3</Region><ServerTime>2026-11-23T12:00:01Z</ServerTime><Endpoint>music.s3.eu-west-3.amazonaws.com</Endpoint>\
            <RequestId>X</RequestId></Error>
            """
        let failure = try #require(S3AnswerParser.failure(Data(xml.utf8)))
        #expect(failure.code == "AuthorizationHeaderMalformed" && failure.region == "eu-west-3"
                && failure.endpoint == "music.s3.eu-west-3.amazonaws.com")
        #expect(failure.serverTime == Date(timeIntervalSince1970: 1_795_435_201))
        #expect(S3AnswerParser.failure(Data("<html><body>Bad Gateway</body></html>".utf8)) == nil)
        #expect(S3AnswerParser.failure(Data()) == nil)
        #expect(S3AnswerParser.failure(Data("<Error><Code></Code></Error>".utf8)) == nil)
    }
}
