# cmake -DPACKAGE_FIND_VERSION=x.y -DV=<BatchBLASConfigVersion.cmake> -P version.cmake
# prints TRUE or FALSE: what the version file answers to find_package(BatchBLAS x.y).
string(REGEX MATCH "^[0-9]+" PACKAGE_FIND_VERSION_MAJOR "${PACKAGE_FIND_VERSION}")
include("${V}")
if(PACKAGE_VERSION_COMPATIBLE)
  message("TRUE")
else()
  message("FALSE")
endif()
