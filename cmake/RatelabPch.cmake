# Precompiled headers. Most of a ratelab file's compile time is spent parsing Qt's headers: a
# widget test took 11 s at -O1, 8 of them in the parser, and 4 s with its Qt headers
# precompiled. Each kind of target therefore precompiles the Qt and standard headers its files
# share, once. RATELAB_PCH=OFF compiles every file on its own (to check that a file includes
# what it uses, or with a compiler cache that cannot handle precompiled headers).
option(RATELAB_PCH "Precompile the Qt headers that ratelab's files share" ON)

set(RATELAB_PCH_CORE
    <QByteArray> <QDateTime> <QJsonArray> <QJsonObject> <QObject> <QString> <QStringList>
    <QVector> <algorithm> <atomic> <chrono> <functional> <memory> <mutex> <optional> <string>
    <vector>)
set(RATELAB_PCH_WIDGETS ${RATELAB_PCH_CORE}
    <QAction> <QChart> <QComboBox> <QFormLayout> <QHBoxLayout> <QHeaderView> <QLabel>
    <QLineEdit> <QLineSeries> <QPen> <QPushButton> <QTableWidget> <QTimer> <QVBoxLayout>
    <QValueAxis> <QWidget>)
# Nearly every test includes the whole QtTest module; widget tests also the widgets above.
set(RATELAB_PCH_TEST_CORE <QtTest> ${RATELAB_PCH_CORE})
set(RATELAB_PCH_TEST_WIDGETS <QtTest> <QSignalSpy> ${RATELAB_PCH_WIDGETS})

# GCC silently parses the headers again when a precompiled header does not fit a file's flags;
# with -Winvalid-pch (an error under -Werror) a mismatch fails the build instead. Clang refuses
# a mismatching header by itself.
function(ratelab_pch_checked target)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        target_compile_options(${target} PRIVATE -Winvalid-pch)
    endif()
endfunction()

# ratelab_pch(target CORE|WIDGETS): the target precompiles that list for its own files.
function(ratelab_pch target kind)
    if(RATELAB_PCH)
        target_precompile_headers(${target} PRIVATE ${RATELAB_PCH_${kind}})
        ratelab_pch_checked(${target})
    endif()
endfunction()

# ratelab_test_pch(target TEST_CORE|TEST_WIDGETS): tests of one kind are built with the same
# compiler flags and definitions, so the first of each kind precompiles the list and the
# others reuse its precompiled header (a test that adds a definition or another Qt module
# must not use this: the compiler would refuse, or ignore, the header).
function(ratelab_test_pch target kind)
    if(NOT RATELAB_PCH)
        return()
    endif()
    ratelab_pch_checked(${target})
    get_property(host GLOBAL PROPERTY RATELAB_PCH_HOST_${kind})
    if(host)
        target_precompile_headers(${target} REUSE_FROM ${host})
    else()
        target_precompile_headers(${target} PRIVATE ${RATELAB_PCH_${kind}})
        set_property(GLOBAL PROPERTY RATELAB_PCH_HOST_${kind} ${target})
    endif()
endfunction()
