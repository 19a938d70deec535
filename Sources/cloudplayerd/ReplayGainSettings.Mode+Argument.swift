import ArgumentParser
import Model

extension ReplayGainSettings.Mode: ExpressibleByArgument {}
