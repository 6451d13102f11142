import Testing
import TestRequirements

/// Issue 44: skips said nothing (24), or pointed the wrong way ("apt-get install gpsd" with gpsd
/// installed, when ../shared was what was missing). A skip names exactly what is missing, each
/// with the command that brings it.
struct RequirementTests {
    @Test func aSkipNamesOnlyWhatIsMissingWithItsCommand() {
        let absent = Requirement.shared("no-such-folder-issue-44")
        #expect(!absent.isMet)
        #expect(Requirement.reason([absent]) == "needs ../shared/no-such-folder-issue-44, the team's shared test data beside this checkout (not in a clone): `ln -s /PATH/TO/shared ../shared`")
        #expect(Requirement.reason([.root], fileID: "IntegrationTests/Reliability/FaultTests.swift").contains("--filter FaultTests`") || Requirement.root.isMet)
        if Requirement.program(.gzip).isMet {
            // Met requirements say nothing: only the missing one is named.
            #expect(Requirement.reason([.program(.gzip), absent]) == Requirement.reason([absent]))
        }
    }

    @Test func anOptInStaysOffInCIUnlessItsVariableIsSet() {
        let optIn = Requirement.optIn(variable: "WORKOUTD_NO_SUCH_VARIABLE_44", why: "a test of opt-ins", command: "true")
        #expect(!Requirement.runs([optIn]))
        #expect(Requirement.reason([optIn]) == "a test of opt-ins: `true`")
    }
}
