import MediaGraphShaderTiles
import Testing

/// The C tile loop reads the compiler's `Instruction` buffers as they are: the Swift struct must
/// have the C struct's layout and every `Op` must be stored as the C operation code.
struct TileLoopLayoutTests {
    @Test func swiftInstructionsHaveTheCLayout() {
        #expect(TileLoop.opCodesMatch, "Op raw values differ from the MG_OP_* codes of CMediaGraphShaderTiles.h")
        #expect(TileLoop.layoutMatches, "Instruction's layout differs from MGShaderInstruction's")
    }
}
