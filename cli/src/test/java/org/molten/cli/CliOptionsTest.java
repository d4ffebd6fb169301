package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.molten.validation.ValidationSettings;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The commands agree on their options: defaults, accepted systems, limits and unit placeholders. */
class CliOptionsTest {
    private static final CommandLine CLI = new CommandLine(new MoltenCli());

    private static OptionSpec option(String command, String name) {
        return CLI.getSubcommands().get(command).getCommandSpec().findOption(name);
    }

    @Test
    void deviceDefaultsToAutoOnEveryCommand() {
        for (String command : List.of("run", "validate", "stability", "accuracy", "bench")) {
            assertEquals("auto", option(command, "--device").defaultValueString(), command);
        }
    }

    @Test
    void runAndValidateShareTheThermostatCoupling() {
        double tau = ValidationSettings.DEFAULT_THERMOSTAT_TIME_CONSTANT_FS;
        assertEquals(tau, RunCommand.DEFAULT_TAU_FS);
        assertEquals(1.0 / tau, RunCommand.DEFAULT_FRICTION_PER_FS, 1e-15);
        assertEquals(Double.toString(tau), option("validate", "--thermostat-time").defaultValueString());
        String runHelp = CliRun.of("run", "--help").out().replaceAll("\\s+", " ");
        assertTrue(runHelp.contains("(default: " + tau + ")"), runHelp);
        assertTrue(runHelp.contains("(default: " + 1.0 / tau + " = 1/--tau's default)"), runHelp);
    }

    @Test
    void everyOptionWithAValueHasAChosenPlaceholderAndUnitsAreNamed() {
        for (Map.Entry<String, CommandLine> c : CLI.getSubcommands().entrySet()) {
            for (OptionSpec o : c.getValue().getCommandSpec().options()) {
                if (o.arity().max() > 0 && o.userObject() instanceof java.lang.reflect.Field f) {
                    assertNotEquals("<" + f.getName() + ">", o.paramLabel(),
                            c.getKey() + " " + o.longestName() + " shows picocli's default placeholder");
                }
            }
        }
        Map<String, List<String>> expected = Map.of(
                "run", List.of("--timestep=<fs>", "--temperature=<K>", "--friction=<1/fs>", "--tau=<fs>",
                        "--max-force=<eV/Å>", "--max-speed=<Å/fs>"),
                "validate", List.of("--max-drift=<meV/atom/ps>", "--max-drift-float32=<meV/atom/ps>", "--timestep=<fs>",
                        "--temperature=<K>", "--thermostat-time=<fs>", "--escape-margin=<Å>", "--overlap-limit=<Å>",
                        "--max-force-rmse=<eV/Å>"),
                "bench", List.of("--time-budget-s=<s>", "--warmup-s=<s>", "--perturbation-a=<Å>", "--temperature-k=<K>",
                        "--tolerance=<%>"));
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            String help = CliRun.of(e.getKey(), "--help").out();
            for (String placeholder : e.getValue()) {
                assertTrue(help.contains(placeholder), e.getKey() + " help lacks " + placeholder + ":\n" + help);
            }
            for (String old : List.of("=MEV", "=EV_PER_A", "=A_PER_FS", "=PER_FS", "=ANGSTROM", "=FS", "=X ")) {
                assertTrue(!help.contains(old), e.getKey() + " help still shows " + old);
            }
        }
    }

    @Test
    void theTopLevelHelpShowsEverySummaryWhole() {
        String help = CliRun.of("--help").out();
        String flat = help.replaceAll("\\s+", " ");
        for (Map.Entry<String, CommandLine> c : CLI.getSubcommands().entrySet()) {
            String[] description = c.getValue().getCommandSpec().usageMessage().description();
            if (description.length == 0 || c.getKey().equals("help")) {
                continue; // picocli's own help command
            }
            String summary = description[0];
            assertTrue(summary.endsWith("."), c.getKey() + "'s summary is not a whole sentence: " + summary);
            assertTrue(flat.contains(summary.replaceAll("\\s+", " ")), c.getKey() + "'s summary is cut in:\n" + help);
        }
    }

    @Test
    void runAcceptsEverySystemValidateDoesAndRefusesZeroSteps() {
        CliRun r = CliRun.of("run", "--system", "water-box", "--force-field", "classical", "--steps", "2", "--seed", "1");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("H128O64, 192 atoms"), r.out());

        r = CliRun.of("run", "--system", "water", "--steps", "0");
        assertEquals(1, r.status());
        assertEquals("molten run: --steps must be at least 1 (the total steps of the run, counted from step 0): 0",
                r.err().strip());
        r = CliRun.of("validate", "--systems", "water", "--steps", "0");
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("molten validate: NVE steps must be strictly positive"), r.err());
    }
}
