package org.molten.validation.reports;

/**
 * Where a report was produced.
 *
 * @param moltenVersion version of Molten
 * @param javaVersion   Java runtime version
 * @param javaVendor    Java runtime vendor
 * @param javaVm        JVM name
 * @param osName        operating system
 * @param osVersion     its version (kernel on Linux)
 * @param osArch        CPU architecture
 * @param cpuCores      processors available to the JVM
 */
public record Environment(String moltenVersion, String javaVersion, String javaVendor, String javaVm, String osName,
                          String osVersion, String osArch, int cpuCores) {

    /** The running JVM's environment. */
    public static Environment current(String moltenVersion) {
        return new Environment(moltenVersion, System.getProperty("java.version"), System.getProperty("java.vendor"),
                System.getProperty("java.vm.name"), System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors());
    }
}
