# How long the longest tests take, in seconds (the debug preset: ASan and UBSan,
# two jobs): ctest includes this file after the tests the test programs declare
# (TEST_INCLUDE_FILES, tests/CMakeLists.txt). ctest starts the costliest tests
# first when it knows their cost, which it otherwise learns from a run
# (Testing/Temporary/CTestCostData.txt, which then takes precedence). A new build
# tree, as CI's, has none: the tests would start in the order they are declared,
# and one declared late would run on alone at the end, 50 s of CI's 550 s ctest.
# Only the order depends on these figures, and a test renamed or gone is ignored.
# The tests declared in tests/CMakeLists.txt itself have their COST there.
set_tests_properties(Issue44Tiers.SameTop10ForEveryBenchQueryAt50k PROPERTIES COST 107)
set_tests_properties(Issue18Shared.RealExportsAreFoundByTheirWordsAndAuthors PROPERTIES COST 70)
set_tests_properties(CranfieldGuard.Issue17TheCliRanksAsTheLibrary PROPERTIES COST 63)
set_tests_properties(Issue19Cluster.ThreeRemoteShardsEquivalence PROPERTIES COST 120)
set_tests_properties(Issue19Cluster.LocalShardsEquivalence PROPERTIES COST 70)
set_tests_properties(Issue43Export.EveryRecordOfEveryRealFileReadsBackFieldByField PROPERTIES COST 100)
set_tests_properties(Issue43.EveryRecordIsHitOneForEachOfItsIdentifiersInEveryForm PROPERTIES COST 60)
set_tests_properties(Issue16Crash.KilledLargeFileIndexingLeavesTheOldOrTheNewFile PROPERTIES COST 54)
set_tests_properties(CranfieldGuard.EngineRankingDoesNotGetWorse PROPERTIES COST 39)
set_tests_properties(PositionalAgainstXapian.PhraseAndNearMatchTheSameAbstracts PROPERTIES COST 27)
set_tests_properties(Issue16Crash.KilledBulkBuildLeavesNoIndexOrTheWholeOne PROPERTIES COST 25)
set_tests_properties(Issue46VectorsCli.KilledBuildLeavesTheOldVectorsOrTheNewOnes PROPERTIES COST 20)
set_tests_properties(Issue16.LargeFileIntoAnIndexIsAllOrNothing PROPERTIES COST 15)
set_tests_properties(Issue46Vectors.DamagedGraphIsLeftUnusedAndSearchesReadEveryVector PROPERTIES COST 12)
set_tests_properties(DocsExamples.EveryConsoleExampleExitsAsDocumented PROPERTIES COST 15)
