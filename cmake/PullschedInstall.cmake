# Install rules and the exported CMake package:
#   find_package(pullsched 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE pullsched::scheduler)   # or pullsched::testchain
# Only public headers are installed; the scheduler's machinery stays in the library.
include(CMakePackageConfigHelpers)
set(PULLSCHED_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pullsched)

install(TARGETS pullsched_scheduler EXPORT pullschedSchedulerTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/scheduler/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY ${PULLSCHED_GENERATED_INCLUDE}/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(EXPORT pullschedSchedulerTargets NAMESPACE pullsched::
        FILE pullschedSchedulerTargets.cmake DESTINATION ${PULLSCHED_CMAKE_DIR})

set(PULLSCHED_WITH_TESTCHAIN OFF)
if(TARGET pullsched_testchain)
  set(PULLSCHED_WITH_TESTCHAIN ON)
  install(TARGETS pullsched_testchain EXPORT pullschedTestchainTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/testchain/include/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
  install(EXPORT pullschedTestchainTargets NAMESPACE pullsched::
          FILE pullschedTestchainTargets.cmake DESTINATION ${PULLSCHED_CMAKE_DIR})
endif()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pullschedConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pullschedConfig.cmake
                              INSTALL_DESTINATION ${PULLSCHED_CMAKE_DIR})
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pullschedConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pullschedConfig.cmake
              ${PROJECT_BINARY_DIR}/pullschedConfigVersion.cmake
        DESTINATION ${PULLSCHED_CMAKE_DIR})
