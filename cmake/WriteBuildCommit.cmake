# Run at every build (cmake -P): writes OUT, a source file naming the commit the rig was
# built from, and touches it only when that changed, so an unchanged tree rebuilds nothing.
# A tree with uncommitted changes to tracked files gets "-dirty". Without git: "unknown".
set(commit "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE head_result ERROR_QUIET)
  if(head_result EQUAL 0 AND head)
    set(commit ${head})
    execute_process(COMMAND ${GIT_EXECUTABLE} diff --quiet HEAD --
                    WORKING_DIRECTORY ${SOURCE_DIR}
                    RESULT_VARIABLE dirty ERROR_QUIET)
    if(NOT dirty EQUAL 0)
      set(commit "${commit}-dirty")
    endif()
  endif()
endif()
set(text "// Generated at build time by cmake/WriteBuildCommit.cmake; not in the source tree.
#include \"measure/BuildCommit.hpp\"

const char* pullsched::rig::buildCommit() noexcept {
    return \"${commit}\";
}
")
file(WRITE ${OUT}.tmp "${text}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
