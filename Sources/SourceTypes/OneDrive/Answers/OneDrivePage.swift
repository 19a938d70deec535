/// One page of a folder's children: `value`, and `@odata.nextLink` (the whole URL of the next
/// page) while there are more. https://learn.microsoft.com/graph/paging
package struct OneDrivePage: Decodable, Sendable, Equatable {
    package var value: [OneDriveItem]
    package var nextLink: String?

    enum CodingKeys: String, CodingKey {
        case value
        case nextLink = "@odata.nextLink"
    }
}
