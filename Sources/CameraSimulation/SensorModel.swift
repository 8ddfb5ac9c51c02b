/// Per-frame constants of the sensor model at one readout size (EMVA 1288 linear model).
struct SensorModel {
    let fullWell: Double          // e⁻ per effective pixel
    let readNoise: Double         // e⁻ RMS per effective pixel (digital sum of native pixels)
    let darkMean: Double          // e⁻ per effective pixel over the exposure
    let dsnu: Double              // e⁻ sigma per effective pixel
    let prnu: Double
    let gain: Double              // analog gain iso / baseISO
    let conversion: Double        // DN per e⁻ at unity gain: (white − black) / full well
    let black: Double
    let white: Double

    init(module: CameraModule, geometry g: ViewGeometry, duration: Double, iso: Double) {
        let k = g.areaFactor
        fullWell = module.fullWellElectrons * k
        readNoise = module.readNoiseElectrons * k.squareRoot()
        darkMean = module.darkCurrentElectronsPerSecond * k * duration
        dsnu = module.dsnuElectrons * k.squareRoot()
        prnu = module.prnu
        gain = iso / module.baseISO
        black = Double(module.blackLevel)
        white = Double(module.whiteLevel)
        conversion = (white - black) / fullWell
    }

    /// Temporal noise in normalised units (0…1 above black): variance = scale · signal + offset.
    var noiseProfile: (scale: Double, offset: Double) {
        let range = white - black
        let dnPerElectron = conversion * gain
        let offset = ((readNoise * readNoise + darkMean) * dnPerElectron * dnPerElectron + 1.0 / 12) / (range * range)
        return (gain / fullWell, offset)
    }
}
